import { existsSync, rmdirSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { makePrivateDir, openAtomicFile, type AtomicFile } from "#src/util/atomic-file.js";
import type { HeldLock } from "#src/util/file-lock.js";
import { CASSETTE_FILE, PROBE_FILE } from "./cassette.js";
import { toolCallTracker } from "./call-events.js";
import { copyKeptLines } from "./copy-lines.js";
import { slimEvent } from "./exchanges/index.js";
import { frameRefsOf } from "./event-frames.js";
import { copyFrame } from "./frame-signature.js";
import { fastValidators } from "./fast-validators.js";
import { checkRegularFile, copyFileAtomic, lockCassette } from "./safe-files.js";
import { scanCassette } from "./scan.js";
import { removeUnkeptFrames } from "./writer.js";

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
 * The new cassette.jsonl is written beside the target and renamed over it (docs/cassettes.md,
 * "Writing safely"), under the lock of the cassette written; frames go before it, and in place the
 * frames it no longer names are removed only after it is in place.
 */
export function pruneCassette(options: {
  dir: string;
  logs: readonly { file: string; entries: readonly ReplayLogEntry[] }[];
  out?: string;
  dryRun?: boolean;
}): PruneResult {
  const dir = path.resolve(options.dir);
  const inPlace = options.out === undefined || path.resolve(options.out) === dir;
  const target = inPlace ? dir : path.resolve(options.out!);
  if (!options.dryRun && !inPlace) refuseExistingOutput(target);
  // in place, the lock is taken before the read: no writer adds to the cassette between the two
  const lock = options.dryRun || !inPlace ? undefined : lockCassette(dir);
  try {
    return pruneLocked({ ...options, dir, inPlace, target });
  } finally {
    lock?.release();
  }
}

interface PruneOptions {
  dir: string;
  logs: readonly { file: string; entries: readonly ReplayLogEntry[] }[];
  inPlace: boolean;
  target: string;
  dryRun?: boolean;
}

/**
 * One pass over the cassette: each line is checked and, when kept, copied to the new cassette.jsonl
 * as it is read (its call, and whether a log used it, is known by then), so the file is read once
 * and the write goes on while the reading does. What can only be judged at the end (a log naming
 * a seq the file lacks, logs that name none of it, a missing frame) is judged before the commit: a
 * prune that fails leaves the old cassette, and no new one.
 */
function pruneLocked(options: PruneOptions): PruneResult {
  if (options.dryRun) return pruneScan(options, undefined).result;
  let created: string | undefined;
  let outLock: HeldLock | undefined;
  let out: AtomicFile | undefined;
  try {
    if (!options.inPlace) {
      created = firstMissing(options.target);
      makePrivateDir(options.target, "--out");
      outLock = lockCassette(options.target);
      refuseExistingOutput(options.target);
    }
    out = openAtomicFile({ file: path.join(options.target, CASSETTE_FILE), field: "--out" });
    const { result, keptFrames } = pruneScan(options, out);
    if (!options.inPlace) {
      for (const ref of [...keptFrames].sort()) copyFrame({ from: options.dir, to: options.target, ref });
      copyProbe(options.dir, options.target);
    }
    out.commit();
    out = undefined;
    outLock?.release();
    outLock = undefined;
    created = undefined;
    if (options.inPlace) {
      const removed = removeUnkeptFrames(options.target, keptFrames);
      if (removed.shared)
        result.warnings.push(`${path.join(options.target, "frames")} is a link to a folder elsewhere: no frame was removed from it (it may be shared)`);
    }
    return result;
  } finally {
    out?.abort();
    outLock?.release();
    // an --out this prune made for a cassette it did not write is not left behind
    if (created) removeMadeDirs(options.target, created);
  }
}

function pruneScan(options: PruneOptions, out: AtomicFile | undefined): { result: PruneResult; keptFrames: Set<string> } {
  const file = path.join(options.dir, CASSETTE_FILE);
  const used = new Set<number>();
  for (const log of options.logs) for (const e of log.entries) if (e.type === "request" && e.matched_seq !== undefined) used.add(e.matched_seq);
  const calls = toolCallTracker();
  const seqs = new Set<number>();
  const dropped: number[] = [];
  const framesBefore = new Set<string>();
  const framesAfter = new Set<string>();
  let kept = 0;
  // the header as it is, first (the scan checks it before the first event)
  let header = out === undefined;
  const scan = scanCassette({
    dir: options.dir,
    validators: fastValidators,
    frames: "verify",
    raw: out !== undefined,
    onEvent: (event, _place, raw) => {
      seqs.add(event.seq);
      const refs = frameRefsOf(event).map((r) => String(r.ref));
      for (const ref of refs) framesBefore.add(ref);
      const call = calls.add(slimEvent(event));
      if (call !== undefined && !used.has(call)) {
        dropped.push(event.seq);
        return;
      }
      kept++;
      for (const ref of refs) framesAfter.add(ref);
      if (!out) return;
      if (!header) {
        copyKeptLines({ from: file, header: true, lines: [], out });
        header = true;
      }
      out.write(raw!);
      out.write(NEWLINE);
    },
  });
  if (!header) copyKeptLines({ from: scan.file, header: true, lines: [], out: out! });
  const warnings: string[] = [];
  let matched = 0;
  for (const log of options.logs) {
    let unmatched = 0;
    let summary = false;
    for (const e of log.entries) {
      if (e.type === "summary") summary = true;
      if (e.type !== "request") continue;
      if (e.outcome === "unmatched") unmatched += 1;
      if (e.matched_seq === undefined) continue;
      if (!seqs.has(e.matched_seq)) {
        throw new UserError(`request #${e.n} matched event seq ${e.matched_seq}, which ${scan.file} does not hold`, {
          code: "BAD_INPUT",
          file: log.file,
          fix: "Pass logs written by replays of this cassette (`cua-contract replay DIR --log FILE -- CMD`).",
        });
      }
      matched += 1;
    }
    if (!summary) warnings.push(`${log.file}: no summary entry: the replay did not finish, so it may not show every call the harness makes`);
    if (unmatched > 0) warnings.push(`${log.file}: ${unmatched} unmatched request(s): the pruned cassette cannot answer them either`);
  }
  if (matched === 0 && calls.spans.length > 0) {
    throw new UserError(`the replay logs name no event of ${scan.file}: pruning would drop every one of its ${calls.spans.length} calls`, {
      code: "BAD_INPUT",
      file: options.logs[0]?.file ?? scan.file,
      field: "--log",
      fix: "Pass the logs of replays of this very cassette (`cua-contract replay DIR --log FILE -- CMD`); a log of another cassette says nothing about this one.",
    });
  }
  const result: PruneResult = {
    out: options.target,
    events: { before: seqs.size, after: kept },
    dropped: dropped.sort((a, b) => a - b),
    frames: { before: framesBefore.size, after: framesAfter.size },
    warnings,
  };
  return { result, keptFrames: framesAfter };
}

const NEWLINE = Buffer.from("\n");

/** The topmost folder of `dir` (itself included) that does not exist yet, if any. */
function firstMissing(dir: string): string | undefined {
  let missing: string | undefined;
  for (let d = dir; !existsSync(d); d = path.dirname(d)) {
    missing = d;
    if (path.dirname(d) === d) break;
  }
  return missing;
}

/** Removes the folders from `dir` up to `top` that were made for it, if they are still empty. */
function removeMadeDirs(dir: string, top: string): void {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top) return;
  }
}

/** Copies probe.json to another cassette (atomically); a link out of the cassette is refused. */
export function copyProbe(from: string, to: string): void {
  const file = path.join(from, PROBE_FILE);
  const fix = "probe.json must be a regular file of the cassette: delete it, or take the probe again with `cua-contract probe`.";
  if (checkRegularFile(file, { what: "probe.json", fix, inside: from }) === "absent") return;
  copyFileAtomic(file, path.join(to, PROBE_FILE), { what: "probe.json", fix, inside: from });
}

export function refuseExistingOutput(out: string, fix = "Choose an empty --out directory, or prune in place (no --out)."): void {
  const file = path.join(out, CASSETTE_FILE);
  if (checkRegularFile(file, { what: "cassette.jsonl", fix: "Choose an empty --out directory.", code: "BAD_INPUT" }) === "file") {
    throw new UserError("the output directory already holds a cassette", {
      code: "OUTPUT_EXISTS",
      file,
      field: "--out",
      fix,
    });
  }
}
