import path from "node:path";
import type { Cassette } from "#src/cassette/cassette.js";
import { copyKeptLines, type KeptLine } from "#src/cassette/copy-lines.js";
import { syncFiles } from "#src/cassette/frame-store.js";
import { copyFileAtomic } from "#src/cassette/safe-files.js";
import { lineOffsets } from "#src/cassette/line-offsets.js";
import { CassetteEventSchema, CassetteHeaderSchema, type CassetteAddition, type CassetteHeader } from "#src/schema/cassette.js";
import { openAtomicFile } from "#src/util/atomic-file.js";
import type { GrowthPlan } from "./growth.js";

/**
 * Writes the grown cassette over the old one without ever leaving a half-written file: the new
 * cassette.jsonl is written beside it (every write checked: a full disk is an error, never a short
 * file), flushed, and renamed over it; the old one is intact until that rename, and a crash before
 * it leaves the old one and a temp file the next writer removes. Recorded lines are copied byte for
 * byte, seq included; the header gains the run's `additions` entry. When the plan leaves recorded
 * events out, the old file is first copied (the same way) to `backup` beside it. The caller holds
 * the cassette's lock.
 */
export function writeGrownCassette(options: {
  cassette: Cassette;
  plan: GrowthPlan;
  addition: Omit<CassetteAddition, "events" | "dropped" | "backup">;
  /** Frames the run wrote, flushed before the cassette that names them. */
  frames: readonly string[];
}): { file: string; backup?: string } {
  const { cassette, plan } = options;
  let backup: string | undefined;
  if (plan.dropped.length > 0) {
    backup = `cassette-before-record-missing-${options.addition.at.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}.jsonl`;
    copyFileAtomic(cassette.file, path.join(cassette.dir, backup), { what: "cassette.jsonl", fix: "Check the cassette folder." });
  }
  const addition: CassetteAddition = { ...options.addition, events: plan.added.length, dropped: plan.dropped.length, ...(backup ? { backup } : {}) };
  const header: CassetteHeader = CassetteHeaderSchema.parse({ ...cassette.header, additions: [...(cassette.header.additions ?? []), addition] });
  const offsets = lineOffsets(cassette.file);
  syncFiles(options.frames);
  const out = openAtomicFile({ file: cassette.file });
  try {
    out.write(`${JSON.stringify(header)}\n`);
    let run: KeptLine[] = [];
    const flushRun = () => {
      if (run.length > 0) copyKeptLines({ from: cassette.file, header: false, lines: run, out });
      run = [];
    };
    for (const item of plan.order) {
      if ("old" in item) {
        const line = cassette.lines[item.old]!;
        run.push({ offset: offsets[line - 1]!, bytes: offsets[line]! - offsets[line - 1]! - 1 });
      } else {
        flushRun();
        out.write(`${JSON.stringify(CassetteEventSchema.parse(item.added))}\n`);
      }
    }
    flushRun();
    out.commit();
  } catch (error) {
    out.abort();
    throw error;
  }
  return { file: cassette.file, ...(backup ? { backup: path.join(cassette.dir, backup) } : {}) };
}
