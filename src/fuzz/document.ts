import type { LoadedBase } from "./bases.js";
import type { CampaignFailure, CampaignResult } from "./campaign.js";
import type { Shard } from "./shard.js";

/** A shrunk failure, and the later failing runs that shrank to the very same case (listed once). */
export interface DistinctFailure {
  failure: CampaignFailure;
  /** Runs after the first whose shrunk case is the same (same base, steps and fault rules). */
  sameCase: number[];
}

/** The shrunk failures with equal cases listed once, under the first run (in run order) that found it. */
export function distinctFailures(failures: readonly CampaignFailure[]): DistinctFailure[] {
  const byCase = new Map<string, DistinctFailure>();
  for (const failure of [...failures].sort((a, b) => a.run - b.run)) {
    const id = JSON.stringify(failure.fcase);
    const known = byCase.get(id);
    if (known) known.sameCase.push(failure.run);
    else byCase.set(id, { failure, sameCase: [] });
  }
  return [...byCase.values()];
}

/** The `fuzz --json` document (and `merge-reports --json`'s, for a merged campaign). */
export function fuzzDocument(options: {
  result: CampaignResult;
  seed: number;
  shard?: Shard | undefined;
  harness: string;
  reproduce: (f: CampaignFailure) => string;
  baseName: (f: CampaignFailure) => string | undefined;
  saved?: readonly (string | undefined)[];
}) {
  const { result } = options;
  return {
    runs: result.runs,
    seed: options.seed,
    ...(options.shard ? { shard: `${options.shard.index}/${options.shard.count}` } : {}),
    harness: options.harness,
    violations: result.violations,
    failures: distinctFailures(result.failures).map(({ failure: f, sameCase }, i) => ({
      seed: f.seed,
      path: f.path,
      invariant: f.violations[0]?.check,
      violations: f.violations,
      reproduce: options.reproduce(f),
      base: options.baseName(f),
      case: f.fcase,
      ...(sameCase.length > 0 ? { same_case_runs: sameCase } : {}),
      ...(options.saved?.[i] ? { saved: options.saved[i] } : {}),
    })),
  };
}

export const baseNamer = (bases: readonly Pick<LoadedBase, "name">[]) => (f: CampaignFailure) => bases[f.fcase.base]?.name;
