import path from "node:path";
import { UserError } from "#src/errors.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { makePrivateDir, openAtomicFile } from "#src/util/atomic-file.js";
import type { HeldLock } from "#src/util/file-lock.js";
import { CASSETTE_FILE, PROBE_FILE } from "./cassette.js";
import { toolCallSpans } from "./call-events.js";
import { copyKeptLines, slimEvent, type KeptLine } from "./copy-lines.js";
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

function pruneLocked(options: {
  dir: string;
  logs: readonly { file: string; entries: readonly ReplayLogEntry[] }[];
  inPlace: boolean;
  target: string;
  dryRun?: boolean;
}): PruneResult {
  const kept: (KeptLine & { seq: number; refs: string[] })[] = [];
  const slim: CassetteEvent[] = [];
  const scan = scanCassette({
    dir: options.dir,
    validators: fastValidators,
    frames: "verify",
    onEvent: (event, place) => {
      kept.push({ offset: place.offset, bytes: place.bytes, seq: event.seq, refs: frameRefsOf(event).map((r) => String(r.ref)) });
      slim.push(slimEvent(event));
    },
  });
  const seqs = new Set(kept.map((e) => e.seq));
  const used = new Set<number>();
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
      used.add(e.matched_seq);
      matched += 1;
    }
    if (!summary) warnings.push(`${log.file}: no summary entry: the replay did not finish, so it may not show every call the harness makes`);
    if (unmatched > 0) warnings.push(`${log.file}: ${unmatched} unmatched request(s): the pruned cassette cannot answer them either`);
  }
  const spans = toolCallSpans(slim);
  if (matched === 0 && spans.length > 0) {
    throw new UserError(`the replay logs name no event of ${scan.file}: pruning would drop every one of its ${spans.length} calls`, {
      code: "BAD_INPUT",
      file: options.logs[0]?.file ?? scan.file,
      field: "--log",
      fix: "Pass the logs of replays of this very cassette (`cua-contract replay DIR --log FILE -- CMD`); a log of another cassette says nothing about this one.",
    });
  }
  const drop = new Set<number>();
  for (const span of spans) if (!used.has(span.seq)) for (const s of span.seqs) drop.add(s);
  const keptLines = kept.filter((e) => !drop.has(e.seq));
  const before = new Set(kept.flatMap((e) => e.refs));
  const after = new Set(keptLines.flatMap((e) => e.refs));
  const result: PruneResult = {
    out: options.target,
    events: { before: kept.length, after: keptLines.length },
    dropped: [...drop].sort((a, b) => a - b),
    frames: { before: before.size, after: after.size },
    warnings,
  };
  if (options.dryRun) return result;

  let outLock: HeldLock | undefined;
  if (!options.inPlace) {
    makePrivateDir(options.target, "--out");
    outLock = lockCassette(options.target);
  }
  try {
    if (!options.inPlace) {
      refuseExistingOutput(options.target);
      for (const ref of [...after].sort()) copyFrame({ from: options.dir, to: options.target, ref });
      copyProbe(options.dir, options.target);
    }
    const out = openAtomicFile({ file: path.join(options.target, CASSETTE_FILE), field: "--out" });
    try {
      copyKeptLines({ from: scan.file, header: true, lines: keptLines, out });
      out.commit();
    } catch (error) {
      out.abort();
      throw error;
    }
  } finally {
    outLock?.release();
  }
  if (options.inPlace) {
    const removed = removeUnkeptFrames(options.target, after);
    if (removed.shared)
      warnings.push(`${path.join(options.target, "frames")} is a link to a folder elsewhere: no frame was removed from it (it may be shared)`);
  }
  return result;
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
