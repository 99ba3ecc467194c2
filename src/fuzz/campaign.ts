import fc from "fast-check";
import type { HarnessParts } from "#src/harness/core/session-parts.js";
import { fuzzCaseArb, type FuzzCase } from "./arbitraries/fuzz-case.js";
import type { LoadedBase } from "./bases.js";
import { runFuzzCase, type FuzzViolation } from "./run-case.js";
import { shardRuns, type Shard } from "./shard.js";

/** A failing run, shrunk: the seed and fast-check path that reproduce it, and what it broke. */
export interface CampaignFailure {
  /** Seed of the failing run (reproduce with `--seed <seed> --runs 1 --path <path>`). */
  seed: number;
  path: string;
  run: number;
  violations: FuzzViolation[];
  /** The shrunk case. */
  fcase: FuzzCase;
  /** The checks the case broke before it was shrunk. */
  unshrunkChecks: string[];
}

/** One run of a campaign, for per-run reports (JUnit). */
export interface CampaignRun {
  run: number;
  seed: number;
  /** The checks the run broke (empty when it passed). */
  checks: string[];
  durationMs: number;
  /**
   * For a run shrunk here: the checks the case broke before shrinking, when they differ (a merge
   * of shards reports those for a run the unsharded campaign would not have shrunk).
   */
  unshrunkChecks?: string[];
}

export interface CampaignResult {
  runs: number;
  /** Every run, in order. */
  perRun: CampaignRun[];
  /** Runs that broke at least one check. */
  violations: number;
  failures: CampaignFailure[];
}

export interface CampaignOptions {
  bases: readonly LoadedBase[];
  parts?: Partial<HarnessParts>;
  runs: number;
  seed: number;
  shard?: Shard;
  /** Replay one exact case (from a failure's path); implies the single run at `seed`. */
  path?: string;
  /** Stop at the first failing run (mutant hunting). */
  stopAtFirst?: boolean;
  /**
   * Count only checks the reference harness passes on the same case, so a variant is caught for
   * its own bug and not for something the reference does too.
   */
  differential?: boolean;
  /** Shrink at most this many failures (default 3); the rest are counted. */
  maxShrunk?: number;
  onProgress?: (done: number, total: number, violations: number) => void;
  /** Runs a case another way (an external harness); replaces `parts` and `differential`. */
  runCase?: (fcase: FuzzCase) => Promise<{ violations: FuzzViolation[] }>;
  /** Also draw the field fault kinds and the named profiles (docs/faults.md); a seed then draws other cases. */
  fieldFaults?: boolean;
  /** Milliseconds, for each run's duration (default: performance.now). */
  now?: () => number;
  /**
   * Cases run side by side (default 1). The result is the one a single job gives: runs are judged
   * in run order, and the failures shrunk are the first `maxShrunk` failing runs (docs/decisions/0201).
   */
  jobs?: number;
}

/**
 * Runs `runs` generated cases; run k uses seed `seed + k`, so a shard takes a disjoint slice of
 * run numbers and any run can be replayed alone. Failing runs are shrunk by fast-check.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const arb = fuzzCaseArb(options.bases, options.fieldFaults ? { fieldFaults: true } : {});
  const ks = options.path !== undefined ? [0] : shardRuns(options.runs, options.shard);
  if ((options.jobs ?? 1) > 1 && ks.length > 1) return runSideBySide({ options, arb, ks, jobs: options.jobs! });
  const maxShrunk = options.maxShrunk ?? 3;
  const failures: CampaignFailure[] = [];
  const perRun: CampaignRun[] = [];
  const now = options.now ?? (() => performance.now());
  let violations = 0;
  let done = 0;
  for (const k of ks) {
    const seed = options.seed + k;
    const shrink = failures.length < maxShrunk;
    const started = now();
    const failure = await runOne({ arb, seed, k, shrink, options });
    perRun.push({ run: k, seed, ...checksOf(failure, shrink), durationMs: Math.max(0, now() - started) });
    done += 1;
    if (failure) {
      violations += 1;
      if (shrink) failures.push(failure);
    }
    options.onProgress?.(done, ks.length, violations);
    if (failure && options.stopAtFirst) break;
  }
  return { runs: done, perRun, violations, failures };
}

/**
 * The same campaign with cases side by side: every run once without shrinking (runs are
 * independent: run k is the case of seed + k), then the first `maxShrunk` failing runs in run
 * order shrunk — as a single job would, since shrinking is deterministic from the seed.
 */
async function runSideBySide(o: { options: CampaignOptions; arb: fc.Arbitrary<FuzzCase>; ks: readonly number[]; jobs: number }): Promise<CampaignResult> {
  const { options, arb, ks, jobs } = o;
  const maxShrunk = options.maxShrunk ?? 3;
  const now = options.now ?? (() => performance.now());
  const outcomes: ({ failure: CampaignFailure | undefined; durationMs: number } | undefined)[] = new Array(ks.length);
  /** With stopAtFirst: the first failing index found so far (runs after it are not started, nor kept). */
  let stopAt = Number.POSITIVE_INFINITY;
  let done = 0;
  let violations = 0;
  await pool(ks.length, jobs, async (i) => {
    if (i > stopAt) return;
    const k = ks[i]!;
    const started = now();
    const failure = await runOne({ arb, seed: options.seed + k, k, shrink: false, options });
    outcomes[i] = { failure, durationMs: Math.max(0, now() - started) };
    done += 1;
    if (failure) violations += 1;
    options.onProgress?.(done, ks.length, violations);
    if (failure && options.stopAtFirst) stopAt = Math.min(stopAt, i);
  });
  const kept = outcomes.slice(0, Number.isFinite(stopAt) ? stopAt + 1 : ks.length) as { failure: CampaignFailure | undefined; durationMs: number }[];
  const failing = kept.flatMap((r, i) => (r.failure ? [i] : [])).slice(0, maxShrunk);
  const shrunk = new Map<number, CampaignFailure>();
  await pool(failing.length, jobs, async (j) => {
    const i = failing[j]!;
    const k = ks[i]!;
    const failure = await runOne({ arb, seed: options.seed + k, k, shrink: true, options });
    // a harness that passes the same case the second time is flaky: the first failure stands, unshrunk
    shrunk.set(i, failure ?? kept[i]!.failure!);
  });
  const perRun: CampaignRun[] = kept.map((r, i) => {
    const failure = shrunk.get(i) ?? r.failure;
    const k = ks[i]!;
    return { run: k, seed: options.seed + k, ...checksOf(failure, shrunk.has(i)), durationMs: r.durationMs };
  });
  return {
    runs: kept.length,
    perRun,
    violations: kept.filter((r) => r.failure).length,
    failures: failing.map((i) => shrunk.get(i)!),
  };
}

/** A run's checks, and for a shrunk one those of the case before shrinking when they differ. */
function checksOf(failure: CampaignFailure | undefined, shrunk: boolean): Pick<CampaignRun, "checks" | "unshrunkChecks"> {
  if (!failure) return { checks: [] };
  const checks = [...new Set(failure.violations.map((v) => v.check))];
  const differ = shrunk && JSON.stringify(checks) !== JSON.stringify(failure.unshrunkChecks);
  return { checks, ...(differ ? { unshrunkChecks: failure.unshrunkChecks } : {}) };
}

/** Runs `task(0 … count-1)` with at most `jobs` at a time, started in index order. */
async function pool(count: number, jobs: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(jobs, count) }, worker));
}

async function runOne(o: {
  arb: fc.Arbitrary<FuzzCase>;
  seed: number;
  k: number;
  shrink: boolean;
  options: CampaignOptions;
}): Promise<CampaignFailure | undefined> {
  const { bases, parts } = o.options;
  const run = async (fcase: FuzzCase) => {
    if (o.options.runCase) return o.options.runCase(fcase);
    const got = await runFuzzCase({ fcase, bases, ...(parts ? { parts } : {}) });
    if (!o.options.differential) return got;
    const reference = await runFuzzCase({ fcase, bases });
    const known = new Set(reference.violations.map((v) => v.check));
    return { ...got, violations: got.violations.filter((v) => !known.has(v.check)) };
  };
  // the first case the property sees is the generated one, before any shrinking
  let unshrunk: FuzzViolation[] | undefined;
  const property = fc.asyncProperty(o.arb, async (fcase) => {
    const { violations } = await run(fcase);
    unshrunk ??= violations;
    return violations.length === 0;
  });
  const details = await fc.check(property, {
    seed: o.seed,
    numRuns: 1,
    ...(o.options.path !== undefined ? { path: o.options.path } : {}),
    ...(o.shrink ? {} : { endOnFailure: true }),
  });
  if (!details.failed || !details.counterexample) return undefined;
  const fcase = details.counterexample[0];
  const { violations } = await run(fcase);
  const unshrunkChecks = [...new Set((unshrunk ?? violations).map((v) => v.check))];
  return { seed: o.seed, path: details.counterexamplePath ?? "0", run: o.k, violations, fcase, unshrunkChecks };
}
