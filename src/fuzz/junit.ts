import type { CampaignFailure, CampaignResult } from "./campaign.js";
import type { MutantResult } from "./mutant-campaign.js";
import type { JunitSuite } from "#src/util/junit.js";

/** A fuzz campaign as JUnit: one test case per run, failed with the checks it broke and, when shrunk, the reproduce line. */
export function fuzzJunitSuites(options: { result: CampaignResult; harness: string; seed: number; reproduce: (f: CampaignFailure) => string }): JunitSuite[] {
  const shrunk = new Map(options.result.failures.map((f) => [f.run, f]));
  return [
    {
      name: `cua-contract fuzz (${options.harness}, seed ${options.seed})`,
      time: options.result.perRun.reduce((t, r) => t + r.durationMs, 0) / 1000,
      cases: options.result.perRun.map((r) => {
        const name = `run ${r.run} (seed ${r.seed})`;
        const time = r.durationMs / 1000;
        if (r.checks.length === 0) return { name, classname: "fuzz", time };
        const f = shrunk.get(r.run);
        const details = f
          ? [...f.violations.map((v) => `${v.check}: ${v.message}`), `reproduce: ${options.reproduce(f)}`].join("\n")
          : `not shrunk (only the first failures are); rerun with --seed ${r.seed} --runs 1`;
        return { name, classname: "fuzz", time, failure: { message: r.checks.join(", "), type: r.checks[0]!, details } };
      }),
    },
  ];
}

/** `fuzz --mutants` as JUnit: one test case per mutant, failed when no run caught it. */
export function mutantJunitSuites(options: { mutants: readonly MutantResult[]; runs: number; seed: number }): JunitSuite[] {
  return [
    {
      name: `cua-contract fuzz --mutants (seed ${options.seed})`,
      cases: options.mutants.map((m) => ({
        name: m.name,
        classname: "mutants",
        ...(m.caught ? {} : { failure: { message: `not caught within ${options.runs} runs: ${m.bug}`, type: "survived" } }),
      })),
    },
  ];
}
