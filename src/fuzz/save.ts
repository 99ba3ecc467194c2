import { mkdirSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "#src/util/atomic-file.js";
import { INVARIANT_IDS } from "#src/invariants/registry.js";
import type { ScenarioInput, StepExpectation } from "#src/schema/scenario.js";
import type { LoadedBase } from "./bases.js";
import type { CampaignFailure } from "./campaign.js";
import { runFuzzCase } from "./run-case.js";

/**
 * Writes a shrunk failure as a scenario file, so a finding becomes a regression test in one step.
 * Invariant findings are caught by `invariants: "all"`; a decision finding at step k becomes an
 * expectation of the reference harness's decision there (when the reference gets it right).
 */
export async function saveFailure(options: { dir: string; failure: CampaignFailure; bases: readonly LoadedBase[]; reproduce: string }): Promise<string> {
  const { failure, bases } = options;
  const base = bases[failure.fcase.base]!;
  const first = failure.violations[0]?.check ?? "finding";
  const id = `fuzz-${first}-${failure.seed}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
  const reference = await runFuzzCase({ fcase: failure.fcase, bases });
  const refChecks = new Set(reference.violations.map((v) => v.check));
  const expect: StepExpectation[] = [...failure.fcase.expect];
  for (const v of failure.violations) {
    if (v.step === undefined || (INVARIANT_IDS as readonly string[]).includes(v.check) || refChecks.has(v.check)) continue;
    const decision = reference.steps[v.step - 1]?.decision;
    if (decision && !expect.some((e) => e.step === v.step && e.decision)) expect.push({ step: v.step, decision });
  }
  expect.sort((a, b) => a.step - b.step);
  // steps past what the cassette answers for the reference harness would fail `check` on an unmatched request
  const keep = Math.max(answeredSteps(reference), ...failure.violations.map((v) => v.step ?? 0), ...expect.map((e) => e.step));
  mkdirSync(options.dir, { recursive: true });
  const file = path.join(options.dir, `${id}.json`);
  const scenario: ScenarioInput = {
    id,
    title: `Fuzz finding: ${failure.violations
      .map((v) => v.check)
      .filter((c, i, a) => a.indexOf(c) === i)
      .join(", ")}`,
    description: failure.violations.map((v) => v.message).join("\n"),
    cassette: path.relative(options.dir, base.cassetteDir) || ".",
    faults: { rules: failure.fcase.rules },
    steps: failure.fcase.steps.slice(0, keep),
    expect: { steps: expect.filter((e) => e.step <= keep), invariants: "all", exit_code: 0 },
    origin: `${options.reproduce} (base ${base.name})`,
  };
  writeFileAtomic({ file, data: `${JSON.stringify(scenario, null, 2)}\n`, mode: 0o644, umask: true, field: "--save" });
  return file;
}

/** How many leading steps of a run made only requests the cassette answered. */
function answeredSteps(run: { steps: readonly { calls: readonly unknown[] }[]; log: readonly { type: string; outcome?: string }[] }): number {
  const requests = run.log.filter((e) => e.type === "request");
  const first = requests.findIndex((e) => e.outcome === "unmatched");
  if (first < 0) return run.steps.length;
  let calls = 0;
  for (const [i, step] of run.steps.entries()) {
    calls += step.calls.length;
    if (calls > first) return i;
  }
  return run.steps.length;
}
