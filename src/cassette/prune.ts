import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { CASSETTE_FILE, FRAMES_DIR, PROBE_FILE } from "./cassette.js";
import { toolCallSpans } from "./call-events.js";
import { frameRefsOf } from "./event-frames.js";
import { copyFrame, frameFilesOf } from "./frame-signature.js";
import { readCassetteSync } from "./reader.js";

export interface PruneResult {
  /** Where the pruned cassette was written (the input dir when pruning in place). */
  out: string;
  events: { before: number; after: number };
  /** seqs of the dropped events. */
  dropped: number[];
  frames: { before: number; after: number };
  warnings: string[];
}

/**
 * Drops the tool calls no replay log used (`matched_seq`) and the frames only they referenced.
 * Everything that is not a tool call stays (identity, `initialize`, `tools/list`, stream open and
 * close), since replay answers from it without a match. Kept lines are copied byte for byte and
 * keep their seq, so a log of the same harness on the pruned cassette names the same events.
 */
export function pruneCassette(options: {
  dir: string;
  logs: readonly { file: string; entries: readonly ReplayLogEntry[] }[];
  out?: string;
  dryRun?: boolean;
}): PruneResult {
  const cassette = readCassetteSync(options.dir);
  const seqs = new Set(cassette.events.map((e) => e.seq));
  const used = new Set<number>();
  const warnings: string[] = [];
  for (const log of options.logs) {
    let unmatched = 0;
    let summary = false;
    for (const e of log.entries) {
      if (e.type === "summary") summary = true;
      if (e.type !== "request") continue;
      if (e.outcome === "unmatched") unmatched += 1;
      if (e.matched_seq === undefined) continue;
      if (!seqs.has(e.matched_seq)) {
        throw new UserError(`request #${e.n} matched event seq ${e.matched_seq}, which ${cassette.file} does not hold`, {
          code: "BAD_INPUT",
          file: log.file,
          fix: "Pass logs written by replays of this cassette (`cua-contract replay DIR --log FILE -- CMD`).",
        });
      }
      used.add(e.matched_seq);
    }
    if (!summary) warnings.push(`${log.file}: no summary entry: the replay did not finish, so it may not show every call the harness makes`);
    if (unmatched > 0) warnings.push(`${log.file}: ${unmatched} unmatched request(s): the pruned cassette cannot answer them either`);
  }
  const drop = new Set<number>();
  for (const span of toolCallSpans(cassette.events)) if (!used.has(span.seq)) for (const s of span.seqs) drop.add(s);
  const keptEvents = cassette.events.filter((e) => !drop.has(e.seq));
  const framesOf = (events: typeof cassette.events) => new Set(events.flatMap((e) => frameRefsOf(e).map((r) => String(r.ref))));
  const before = framesOf(cassette.events);
  const after = framesOf(keptEvents);
  const result: PruneResult = {
    out: path.resolve(options.out ?? options.dir),
    events: { before: cassette.events.length, after: keptEvents.length },
    dropped: [...drop].sort((a, b) => a - b),
    frames: { before: before.size, after: after.size },
    warnings,
  };
  if (options.dryRun) return result;

  const lines = readFileSync(cassette.file, "utf8").split("\n");
  const keptLines = [lines[0]!, ...cassette.events.flatMap((e, i) => (drop.has(e.seq) ? [] : [lines[cassette.lines[i]! - 1]!]))];
  const text = `${keptLines.join("\n")}\n`;
  if (options.out !== undefined && path.resolve(options.out) !== path.resolve(options.dir)) {
    writeCopy({ from: cassette.dir, to: options.out, text, frames: after });
  } else {
    const tmp = `${cassette.file}.prune-${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, cassette.file);
    const framesDir = path.join(cassette.dir, FRAMES_DIR);
    const kept = frameFilesOf(after);
    if (existsSync(framesDir)) for (const f of readdirSync(framesDir)) if (!kept.has(`${FRAMES_DIR}/${f}`)) rmSync(path.join(framesDir, f));
  }
  return result;
}

function writeCopy(o: { from: string; to: string; text: string; frames: ReadonlySet<string> }): void {
  if (existsSync(path.join(o.to, CASSETTE_FILE))) {
    throw new UserError("the output directory already holds a cassette", {
      code: "OUTPUT_EXISTS",
      file: path.join(o.to, CASSETTE_FILE),
      field: "--out",
      fix: "Choose an empty --out directory, or prune in place (no --out).",
    });
  }
  mkdirSync(o.to, { recursive: true, mode: 0o700 });
  if (o.frames.size > 0) mkdirSync(path.join(o.to, FRAMES_DIR), { recursive: true, mode: 0o700 });
  for (const ref of o.frames) copyFrame({ from: o.from, to: o.to, ref });
  if (existsSync(path.join(o.from, PROBE_FILE))) copyFileSync(path.join(o.from, PROBE_FILE), path.join(o.to, PROBE_FILE));
  writeFileSync(path.join(o.to, CASSETTE_FILE), o.text, { mode: 0o600 });
}
