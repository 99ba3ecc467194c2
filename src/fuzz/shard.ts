import { UserError } from "#src/errors.js";

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n). */
export function parseShard(spec: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(spec.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new UserError(`bad shard "${spec}"`, {
      code: "USAGE",
      field: "--shard",
      fix: "Write i/n with 1 ≤ i ≤ n, e.g. --shard 2/4 for the second of four shards.",
    });
  }
  return { index, count };
}

/** Run numbers (0-based, below `runs`) that belong to a shard: every n-th, starting at i-1. Shards are disjoint and cover all runs. */
export function shardRuns(runs: number, shard: Shard | undefined): number[] {
  const out: number[] = [];
  const start = shard ? shard.index - 1 : 0;
  const step = shard ? shard.count : 1;
  for (let k = start; k < runs; k += step) out.push(k);
  return out;
}
