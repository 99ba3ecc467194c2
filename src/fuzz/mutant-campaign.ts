import type { LoadedBase } from "./bases.js";
import { runCampaign, type CampaignFailure } from "./campaign.js";
import { MUTANTS, type MutantName } from "./mutants.js";

export interface MutantResult {
  name: MutantName;
  bug: string;
  caught: boolean;
  /** Runs until it was caught (or all runs, when it was not). */
  runs: number;
  /** The first check that caught it, and the shrunk case. */
  invariant?: string | undefined;
  failure?: CampaignFailure;
}

/** Hunts each mutant with the same seeds; a mutant counts as caught only for a check the reference harness passes on that case. */
export async function runMutants(options: {
  bases: readonly LoadedBase[];
  runs: number;
  seed: number;
  onMutant?: (result: MutantResult) => void;
}): Promise<MutantResult[]> {
  const out: MutantResult[] = [];
  for (const m of MUTANTS) {
    const r = await runCampaign({
      bases: options.bases,
      parts: m.parts,
      runs: options.runs,
      seed: options.seed,
      stopAtFirst: true,
      differential: true,
      maxShrunk: 1,
    });
    const failure = r.failures[0];
    const result: MutantResult = {
      name: m.name,
      bug: m.bug,
      caught: r.violations > 0,
      runs: r.runs,
      ...(failure ? { invariant: failure.violations[0]?.check, failure } : {}),
    };
    out.push(result);
    options.onMutant?.(result);
  }
  return out;
}
