import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { UserError } from "#src/errors.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { CassetteValidators, EventPlace } from "./scan.js";

/** What identifies one version of a file: a cassette read again later must still be this one. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

export function fileStamp(file: string): FileStamp {
  const s = statSync(file);
  return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
}

/**
 * One event read again from its place in cassette.jsonl (as `scanCassette` reported it), for a
 * reader that keeps places instead of events: memory then holds one event while it is used.
 */
export function readEventAt(options: { file: string; place: EventPlace; validators: CassetteValidators }): CassetteEvent {
  const { file, place } = options;
  return options.validators.event(parseLine(file, place, readPlace(file, place)), file, place.line);
}

/**
 * The event at `place`, as a reader that scanned (and validated) the file saw it: the file must be
 * the same version (`stamp`) and the line the event with this `seq`, else the cassette changed while
 * in use and nothing is served from it. Not validated again: the scan did that.
 */
export function readScannedEvent(options: { file: string; place: EventPlace; seq: number; stamp: FileStamp }): CassetteEvent {
  const { file, place } = options;
  const json = parseLine(file, place, readPlace(file, place, options.stamp)) as { seq?: unknown } | null;
  if (typeof json !== "object" || json === null || json.seq !== options.seq) throw changed(file, place, `the line there is no longer event ${options.seq}`);
  return json as CassetteEvent;
}

function readPlace(file: string, place: EventPlace, stamp?: FileStamp): Buffer {
  const bytes = Buffer.allocUnsafe(place.bytes);
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    throw changed(file, place, "it can no longer be opened");
  }
  try {
    if (stamp) {
      const now = fstatSync(fd);
      if (now.size !== stamp.size || now.mtimeMs !== stamp.mtimeMs || now.ino !== stamp.ino) throw changed(file, place, "it was written to since it was read");
    }
    let read = 0;
    while (read < place.bytes) {
      const n = readSync(fd, bytes, read, place.bytes - read, place.offset + read);
      if (n === 0) break;
      read += n;
    }
    if (read < place.bytes) throw changed(file, place, "it is shorter than when it was read");
  } finally {
    closeSync(fd);
  }
  return bytes;
}

function parseLine(file: string, place: EventPlace, bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw changed(file, place, "the line there is no longer JSON");
  }
}

function changed(file: string, place: EventPlace, why: string): UserError {
  return new UserError(`cassette.jsonl changed while it was in use (${why})`, {
    code: "BAD_CASSETTE",
    file,
    line: place.line,
    fix: "Do not edit or re-record a cassette while it is replayed; run again.",
  });
}
