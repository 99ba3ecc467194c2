import { closeSync, copyFileSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { Cassette } from "#src/cassette/cassette.js";
import { syncFiles } from "#src/cassette/frame-store.js";
import { CassetteEventSchema, CassetteHeaderSchema, type CassetteAddition, type CassetteHeader } from "#src/schema/cassette.js";
import type { GrowthPlan } from "./growth.js";

/**
 * Writes the grown cassette over the old one without ever leaving a half-written file: the new
 * cassette.jsonl is written beside it, flushed, and renamed over it (the old one is intact until
 * that rename; a crash before it leaves the old one and a stray temp file). Recorded lines are
 * copied byte for byte, seq included; the header gains the run's `additions` entry. When the plan
 * leaves recorded events out, the old file is first copied to `backup` beside it.
 */
export function writeGrownCassette(options: {
  cassette: Cassette;
  plan: GrowthPlan;
  addition: Omit<CassetteAddition, "events" | "dropped" | "backup">;
  /** Frames the run wrote, flushed before the cassette that names them. */
  frames: readonly string[];
}): { file: string; backup?: string } {
  const { cassette, plan } = options;
  const old = readFileSync(cassette.file, "utf8").split("\n");
  let backup: string | undefined;
  if (plan.dropped.length > 0) {
    backup = `cassette-before-record-missing-${options.addition.at.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}.jsonl`;
    copyFileSync(cassette.file, path.join(cassette.dir, backup));
  }
  const addition: CassetteAddition = { ...options.addition, events: plan.added.length, dropped: plan.dropped.length, ...(backup ? { backup } : {}) };
  const header: CassetteHeader = CassetteHeaderSchema.parse({ ...cassette.header, additions: [...(cassette.header.additions ?? []), addition] });
  const lines = [JSON.stringify(header)];
  for (const item of plan.order) {
    lines.push("old" in item ? old[cassette.lines[item.old]! - 1]! : JSON.stringify(CassetteEventSchema.parse(item.added)));
  }
  syncFiles(options.frames);
  const tmp = `${cassette.file}.record-missing-${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, `${lines.join("\n")}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, cassette.file);
  syncFiles([cassette.file]);
  return { file: cassette.file, ...(backup ? { backup: path.join(cassette.dir, backup) } : {}) };
}
