import { closeSync, openSync, readSync } from "node:fs";
import { UserError } from "../errors.js";
import type { CassetteEvent } from "../schema/cassette.js";
import type { CassetteValidators, EventPlace } from "./scan.js";

/**
 * One event read again from its place in cassette.jsonl (as `scanCassette` reported it), for a
 * reader that keeps places instead of events: memory then holds one event while it is used.
 */
export function readEventAt(options: { file: string; place: EventPlace; validators: CassetteValidators }): CassetteEvent {
  const { file, place } = options;
  const bytes = Buffer.allocUnsafe(place.bytes);
  const fd = openSync(file, "r");
  try {
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
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw changed(file, place, "the line there is no longer JSON");
  }
  return options.validators.event(json, file, place.line);
}

function changed(file: string, place: EventPlace, why: string): UserError {
  return new UserError(`cassette.jsonl changed while it was in use (${why})`, {
    code: "BAD_CASSETTE",
    file,
    line: place.line,
    fix: "Do not edit or re-record a cassette while it is replayed; run again.",
  });
}
