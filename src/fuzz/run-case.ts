import { judgeSteps } from "#src/check/judge.js";
import type { HarnessParts } from "#src/harness/core/session-parts.js";
import { createHarnessSession } from "#src/harness/core/session.js";
import { knownToolsOptions } from "#src/replay/engine/known-tools.js";
import { runInvariants } from "#src/invariants/run.js";
import { BATCH_MARK } from "#src/invariants/no-input-after-stale.js";
import { createReplayer } from "#src/replay/replayer.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import type { StepResult } from "#src/schema/harness-step.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import type { FuzzCase } from "./arbitraries/fuzz-case.js";
import type { LoadedBase } from "./bases.js";
import { checkOracles } from "./oracles.js";

/** One thing a run got wrong: a violated invariant, a broken decision property, or an unmet expectation. */
export interface FuzzViolation {
  /** Invariant id, oracle id, or `step-expectation`. */
  check: string;
  message: string;
  step?: number;
}

export interface FuzzRun {
  violations: FuzzViolation[];
  steps: StepResult[];
  log: ReplayLogEntry[];
}

/** Runs one generated case: the harness (reference or a variant) against the replayer with the case's faults. */
export async function runFuzzCase(options: { fcase: FuzzCase; bases: readonly LoadedBase[]; parts?: Partial<HarnessParts> }): Promise<FuzzRun> {
  const { fcase } = options;
  const base = options.bases[fcase.base];
  if (!base) throw new Error(`fuzz case names base ${fcase.base}, but there are ${options.bases.length}`);
  const clock = createVirtualClock();
  const replayer = createReplayer({
    cassette: base.cassette.replay,
    faults: { rules: fcase.rules },
    clock,
    ...(base.cassette.tools ? { tools: base.cassette.tools } : {}),
  });
  const session = createHarnessSession({ driver: replayer, clock, ...(options.parts ? { parts: options.parts } : {}) });
  const steps: StepResult[] = [];
  try {
    for (const action of fcase.steps) {
      replayer.mark(BATCH_MARK); // each step is one turn of the model: a batch of its own
      steps.push(await session.step(action));
    }
  } catch (error) {
    // A harness that throws instead of answering is a finding, not a fuzzer failure.
    const message = `step ${steps.length + 1} threw: ${error instanceof Error ? error.message : String(error)}`;
    return { violations: [{ check: "crash", message, step: steps.length + 1 }], steps, log: replayer.log() };
  }
  const log = replayer.log();
  const judged = judgedPrefix({ log, steps });
  const report = runInvariants(judged.log, { options: knownToolsOptions(base.cassette.knownTools) });
  const violations: FuzzViolation[] = [
    ...report.results.flatMap((r) => r.violations.map((v) => ({ check: r.id, message: v.message }))),
    ...checkOracles({ actions: fcase.steps.slice(0, judged.steps), steps: steps.slice(0, judged.steps), log: judged.log }).map((o) => ({
      check: o.id,
      message: o.message,
      step: o.step,
    })),
    ...judgeSteps({ expectations: fcase.expect.filter((e) => e.step <= judged.steps), steps }).map((f) => ({
      check: "step-expectation",
      message: f.message,
      ...(f.step ? { step: f.step } : {}),
    })),
  ];
  return { violations, steps, log };
}

/**
 * The part of a run that can be judged: everything up to and including the first request the
 * cassette could not answer. That request is the harness's own doing; what the replayer serves
 * after it (transport errors standing in for answers it does not have) is not the driver's
 * behaviour, so later requests and steps are not judged.
 */
export function judgedPrefix(options: { log: readonly ReplayLogEntry[]; steps: readonly StepResult[] }): { log: ReplayLogEntry[]; steps: number } {
  const cut = options.log.findIndex((e) => e.type === "request" && e.outcome === "unmatched");
  if (cut < 0) return { log: [...options.log], steps: options.steps.length };
  const log = options.log.slice(0, cut + 1);
  const requests = log.filter((e) => e.type === "request").length;
  let calls = 0;
  let steps = 0;
  for (const s of options.steps) {
    if (calls >= requests) break;
    calls += s.calls.length;
    steps += 1;
  }
  return { log, steps };
}
