import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import type { CassetteEvent, CassetteHeader } from "#src/schema/cassette.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION } from "#src/schema/cassette-format.js";
import { CASSETTE_FILE, PROBE_FILE, type FrameStats } from "./cassette.js";
import { frameRefsOf } from "./event-frames.js";
import { parseFrameRef, sha256Hex } from "./frame-ref.js";
import { readLines } from "./line-reader.js";
import { recogniseFile } from "./recognise-file.js";
import { checkRegularFile, LOCK_FILE, readRegularFile } from "./safe-files.js";
import { liveLockHolder } from "#src/util/file-lock.js";

/** Turns a line's JSON into a header or event, or throws a UserError naming file, line and field. */
export interface CassetteValidators {
  header(json: unknown, file: string): CassetteHeader;
  event(json: unknown, file: string, line: number): CassetteEvent;
}

/** Where an event is in cassette.jsonl. */
export interface EventPlace {
  /** 1-based line. */
  line: number;
  /** Byte offset and length of the line (without its newline). */
  offset: number;
  bytes: number;
}

export interface ScanCassetteOptions {
  dir: string;
  validators: CassetteValidators;
  /**
   * Called for each event in file order; the scan keeps no event itself. With `raw: true`, `raw` is
   * the line's bytes as they are in the file (without its newline), valid only during the call.
   */
  onEvent: (event: CassetteEvent, place: EventPlace, raw?: Buffer) => void;
  raw?: boolean;
  /** `verify` throws on a missing or altered frame, `report` lists them, `skip` reads no frame. */
  frames: "verify" | "report" | "skip";
  /** `skip`: probe.json is not read (a reader that has no use for it, e.g. a report). Default `read`. */
  probe?: "read" | "skip";
}

/** A cassette read line by line: its header and where each event is, without holding the events. */
export interface CassetteScan {
  dir: string;
  file: string;
  header: CassetteHeader;
  warnings: string[];
  frameStats: FrameStats;
  probe?: { json: unknown; sha256: string };
  events: number;
}

/** The header's fix line, shared by the validators. */
export const HEADER_FIX = `Line 1 must be the header {"format":"${CASSETTE_FORMAT}","version":${CASSETTE_VERSION},…}; re-record the cassette.`;

const DIR_FIX = "Pass the directory that `cua-contract record --out DIR` wrote (it holds cassette.jsonl).";

/**
 * Reads a cassette directory line by line (memory holds one line, not the file) and hands each
 * validated event to `onEvent`. A torn last line is dropped with a warning naming the line; a torn
 * line elsewhere is an error naming file:line. Frame refs are checked before the event's schema so
 * that a path segment gets its own message.
 */
export function scanCassette(options: ScanCassetteOptions): CassetteScan {
  const { dir, validators } = options;
  const file = path.join(dir, CASSETTE_FILE);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    const kind = recogniseFile(dir);
    if (kind) {
      throw new UserError(`this is ${kind.what}, not a cassette: ${kind.takenBy}`, {
        code: "BAD_CASSETTE",
        file: dir,
        fix: "Where a cassette goes, pass the directory that `cua-contract record --out DIR` wrote (it holds cassette.jsonl).",
      });
    }
    throw new UserError(`no cassette directory at ${dir}`, { code: "BAD_CASSETTE", file: dir, fix: DIR_FIX });
  }
  checkRegularFile(file, { what: "cassette.jsonl", fix: DIR_FIX, inside: dir });
  let header: CassetteHeader | undefined;
  const warnings: string[] = [];
  const refs = new Set<string>();
  let events = 0;
  const seqs = new Map<number, number>();
  let lastRecorded = -1;
  // A line that is not JSON is an error unless nothing follows it (a crash tore the last line).
  let torn: { line: number; chars: number } | undefined;
  for (const l of readLines({ file, what: "cassette.jsonl", fix: DIR_FIX, ...(options.raw ? { raw: true } : {}) })) {
    if (torn) throw tornInMiddle(file, torn.line);
    if (l.line === 1) {
      header = parseHeader(file, l.text, validators);
      continue;
    }
    if (l.text.trim() === "") continue;
    let json: unknown;
    try {
      json = JSON.parse(l.text);
    } catch {
      torn = { line: l.line, chars: l.text.length };
      continue;
    }
    for (const { field, ref } of frameRefsOf(json)) {
      if (typeof ref === "string" && parseFrameRef(ref)) {
        refs.add(ref);
        continue;
      }
      throw new UserError(`frame reference ${JSON.stringify(ref)} is not frames/<sha256>.<png|jpg> (path segments are not allowed)`, {
        code: "BAD_FRAME",
        file,
        line: l.line,
        field,
        fix: "Re-record the cassette, or fix the reference by hand; cua-contract never reads files outside frames/.",
      });
    }
    const event = validators.event(json, file, l.line);
    checkSeq({ event, line: l.line, file, seqs, lastRecorded });
    if (!event.added) lastRecorded = event.seq;
    events++;
    options.onEvent(event, { line: l.line, offset: l.offset, bytes: l.bytes }, l.raw);
  }
  if (header === undefined) header = parseHeader(file, undefined, validators);
  checkDates(file, header);
  const writer = liveLockHolder(path.join(dir, LOCK_FILE));
  if (writer) {
    warnings.push(`${dir} is being written by process ${writer.pid} (\`${writer.command}\`, since ${writer.since}): this is what it had written so far`);
  }
  if (torn) {
    warnings.push(
      `${file}:${torn.line}: torn last line (${torn.chars} characters, not valid JSON) ignored; the recording was probably killed while writing it`,
    );
  }
  const probe = options.probe === "skip" ? undefined : readProbe(dir);
  const frameStats = collectFrameStats({ dir, refs, mode: options.frames, file });
  return { dir, file, header, warnings, frameStats, events, ...(probe ? { probe } : {}) };
}

/**
 * `seq` names an event: no two may share one. Recorded events keep file order (each seq larger than
 * the recorded one before it); an event `replay --record-missing` added sits where its call happened
 * with a seq past the largest, so only recorded events are held to the order.
 */
function checkSeq(o: { event: CassetteEvent; line: number; file: string; seqs: Map<number, number>; lastRecorded: number }): void {
  const { event, line, file } = o;
  const earlier = o.seqs.get(event.seq);
  if (earlier !== undefined) {
    throw new UserError(`seq ${event.seq} is used twice (lines ${earlier} and ${line}); seq must name one event`, {
      code: "BAD_CASSETTE",
      file,
      line,
      field: "seq",
      fix: "Two writers wrote this cassette at once, or it was edited by hand: keep one of the two lines, or re-record.",
    });
  }
  o.seqs.set(event.seq, line);
  if (!event.added && event.seq < o.lastRecorded) {
    throw new UserError(`seq ${event.seq} comes after seq ${o.lastRecorded}; recorded events are numbered in file order`, {
      code: "BAD_CASSETTE",
      file,
      line,
      field: "seq",
      fix: "Put the lines back in seq order (or renumber them), or re-record the cassette.",
    });
  }
}

/** A day of clock skew between machines is allowed; a cassette recorded later than that is a wrong date. */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

function checkDates(file: string, header: CassetteHeader): void {
  const dates: [string, string][] = [
    ["recorded_at", header.recorded_at],
    ...(header.additions ?? []).map((a, i): [string, string] => [`additions.${i}.at`, a.at]),
  ];
  for (const [field, value] of dates) {
    if (Date.parse(value) > Date.now() + FUTURE_SLACK_MS) {
      throw new UserError(`${field} ${value} is in the future; the cassette's age cannot be judged`, {
        code: "BAD_CASSETTE",
        file,
        line: 1,
        field,
        fix: "Correct the date to when the cassette was recorded (ISO 8601, e.g. 2026-05-01T12:00:00.000Z), or re-record it.",
      });
    }
  }
}

function tornInMiddle(file: string, line: number): UserError {
  return new UserError("torn or invalid JSON line in the middle of the cassette", {
    code: "BAD_CASSETTE",
    file,
    line,
    fix: "Only the last line may be torn by a crash; repair or delete this line by hand, or re-record.",
  });
}

function parseHeader(file: string, line: string | undefined, validators: CassetteValidators): CassetteHeader {
  const fix = HEADER_FIX;
  if (line === undefined || line.trim() === "") {
    throw new UserError("the cassette is empty (no header line)", { code: "BAD_CASSETTE", file, line: 1, fix });
  }
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new UserError("bad header: not valid JSON", { code: "BAD_CASSETTE", file, line: 1, fix });
  }
  const obj = (json ?? {}) as Record<string, unknown>;
  if (typeof json !== "object" || obj.format !== CASSETTE_FORMAT) {
    throw new UserError(`bad header: format is ${JSON.stringify(obj.format)}, expected "${CASSETTE_FORMAT}"`, {
      code: "BAD_CASSETTE",
      file,
      line: 1,
      field: "format",
      fix,
    });
  }
  if (obj.version !== CASSETTE_VERSION) {
    throw new UserError(`unknown cassette format version ${JSON.stringify(obj.version)}; this cua-contract reads version ${CASSETTE_VERSION}`, {
      code: "BAD_CASSETTE",
      file,
      line: 1,
      field: "version",
      fix: "Use the cua-contract release that wrote it, or re-record the cassette with this one.",
    });
  }
  return validators.header(json, file);
}

function readProbe(dir: string): { json: unknown; sha256: string } | undefined {
  const file = path.join(dir, PROBE_FILE);
  const fix = "probe.json must be a regular file of the cassette: delete it, or take the probe again with `cua-contract probe`.";
  if (checkRegularFile(file, { what: "probe.json", fix, inside: dir }) === "absent") return undefined;
  const bytes = readRegularFile(file, { what: "probe.json", fix });
  try {
    return { json: JSON.parse(bytes.toString("utf8")), sha256: sha256Hex(bytes) };
  } catch {
    throw new UserError("probe.json is not valid JSON", {
      code: "BAD_CASSETTE",
      file,
      fix: "Delete probe.json or take the probe again with `cua-contract probe`.",
    });
  }
}

function collectFrameStats(options: { dir: string; refs: ReadonlySet<string>; mode: "verify" | "report" | "skip"; file: string }): FrameStats {
  const stats: FrameStats = { count: options.refs.size, bytes: 0, missing: [], mismatched: [] };
  if (options.mode === "skip") return stats;
  for (const ref of [...options.refs].sort()) {
    const framePath = path.join(options.dir, ref);
    const fix = "A frame must be a regular file (or a link to one) holding the image: restore it from the original recording, or re-record the cassette.";
    if (checkRegularFile(framePath, { what: `frame ${ref}`, fix, code: "BAD_FRAME" }) === "absent") {
      stats.missing.push(ref);
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = readRegularFile(framePath, { what: `frame ${ref}`, fix, code: "BAD_FRAME" });
    } catch (error) {
      if (error instanceof UserError) throw error;
      stats.missing.push(ref);
      continue;
    }
    stats.bytes += bytes.length;
    if (sha256Hex(bytes) !== parseFrameRef(ref)!.sha256) stats.mismatched.push(ref);
  }
  if (options.mode === "verify") {
    const bad = stats.mismatched[0];
    if (bad) {
      throw new UserError(`frame ${bad} does not match its hash`, {
        code: "BAD_FRAME",
        file: path.join(options.dir, bad),
        fix: "The frame was altered or damaged: restore it from the original recording, or re-record the cassette.",
      });
    }
    const missing = stats.missing[0];
    if (missing) {
      throw new UserError(`frame ${missing} is missing`, {
        code: "BAD_FRAME",
        file: options.file,
        fix: `Copy ${missing} back beside cassette.jsonl, or re-record the cassette.`,
      });
    }
  }
  return stats;
}
