import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { UserError } from "../errors.js";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  CassetteEventSchema,
  CassetteHeaderSchema,
  type CassetteEvent,
} from "../schema/cassette.js";
import { CASSETTE_FILE, PROBE_FILE, type Cassette, type FrameStats } from "./cassette.js";
import { parseFrameRef, sha256Hex } from "./frame-ref.js";
import { recogniseFile } from "./recognise-file.js";
import { frameRefsOf } from "./event-frames.js";

export interface ReadCassetteOptions {
  /**
   * What to do with frames: `verify` (default) throws on a missing or altered frame, `report` only
   * lists them in `frameStats` (what `inspect` wants), `skip` does not look at frame files.
   */
  frames?: "verify" | "report" | "skip";
}

/** Loads and validates a cassette directory. Bad input throws a UserError naming file:line and the fix. */
export async function readCassette(dir: string, options: ReadCassetteOptions = {}): Promise<Cassette> {
  return readCassetteSync(dir, options);
}

export function readCassetteSync(dir: string, options: ReadCassetteOptions = {}): Cassette {
  const file = path.join(dir, CASSETTE_FILE);
  const text = readCassetteText(dir, file);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const header = parseHeader(file, lines[0]);
  const events: CassetteEvent[] = [];
  const eventLines: number[] = [];
  const warnings: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!;
    if (raw.trim() === "") continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      if (i === lines.length - 1) {
        warnings.push(`${file}:${lineNo}: torn last line (${raw.length} characters, not valid JSON) ignored; the recording was probably killed while writing it`);
        continue;
      }
      throw new UserError("torn or invalid JSON line in the middle of the cassette", {
        code: "BAD_CASSETTE",
        file,
        line: lineNo,
        fix: "Only the last line may be torn by a crash; repair or delete this line by hand, or re-record.",
      });
    }
    checkFrameRefs(file, lineNo, json);
    const parsed = CassetteEventSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? issue.path.join(".") : "event";
      throw new UserError(`invalid event: ${issue?.message ?? "does not match the cassette event schema"}`, {
        code: "BAD_CASSETTE",
        file,
        line: lineNo,
        field,
        fix: "See contracts/schema/cassette.schema.json for the event shape; fix the line or re-record.",
      });
    }
    events.push(parsed.data);
    eventLines.push(lineNo);
  }
  const probe = readProbe(dir);
  const frameStats = collectFrameStats({ dir, events, mode: options.frames ?? "verify", file });
  const cassette: Cassette = { dir, file, header, events, lines: eventLines, warnings, frameStats };
  if (probe !== undefined) {
    cassette.probe = probe.json;
    cassette.probeSha256 = probe.sha256;
  }
  return cassette;
}

function readCassetteText(dir: string, file: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    const kind = recogniseFile(dir);
    if (kind) {
      throw new UserError(`this is ${kind.what}, not a cassette: ${kind.takenBy}`, {
        code: "BAD_CASSETTE",
        file: dir,
        fix: "Where a cassette goes, pass the directory that `cua-contract record --out DIR` wrote (it holds cassette.jsonl).",
      });
    }
    throw new UserError(`no cassette directory at ${dir}`, {
      code: "BAD_CASSETTE",
      file: dir,
      fix: "Pass the directory that `cua-contract record --out DIR` wrote (it holds cassette.jsonl).",
    });
  }
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new UserError("cassette.jsonl is missing", {
      code: "BAD_CASSETTE",
      file,
      fix: "Pass the directory that `cua-contract record --out DIR` wrote (it holds cassette.jsonl).",
    });
  }
}

function parseHeader(file: string, line: string | undefined) {
  const fix = `Line 1 must be the header {"format":"${CASSETTE_FORMAT}","version":${CASSETTE_VERSION},…}; re-record the cassette.`;
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
  const parsed = CassetteHeaderSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`bad header: ${issue?.message ?? "invalid"}`, {
      code: "BAD_CASSETTE",
      file,
      line: 1,
      field: issue?.path.join(".") || "header",
      fix,
    });
  }
  return parsed.data;
}

// Refs are checked before the schema so that a path segment gets its own message.
function checkFrameRefs(file: string, line: number, json: unknown): void {
  for (const { field, ref } of frameRefsOf(json)) {
    if (typeof ref === "string" && parseFrameRef(ref)) continue;
    throw new UserError(`frame reference ${JSON.stringify(ref)} is not frames/<sha256>.<png|jpg> (path segments are not allowed)`, {
      code: "BAD_FRAME",
      file,
      line,
      field,
      fix: "Re-record the cassette, or fix the reference by hand; cua-contract never reads files outside frames/.",
    });
  }
}

function readProbe(dir: string): { json: unknown; sha256: string } | undefined {
  const file = path.join(dir, PROBE_FILE);
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
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

function collectFrameStats(options: {
  dir: string;
  events: CassetteEvent[];
  mode: "verify" | "report" | "skip";
  file: string;
}): FrameStats {
  const refs = new Set<string>();
  for (const event of options.events) for (const { ref } of frameRefsOf(event)) refs.add(ref as string);
  const stats: FrameStats = { count: refs.size, bytes: 0, missing: [], mismatched: [] };
  if (options.mode === "skip") return stats;
  for (const ref of [...refs].sort()) {
    const framePath = path.join(options.dir, ref);
    let bytes: Buffer;
    try {
      bytes = readFileSync(framePath);
    } catch {
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
