import type { HarnessParts } from "#src/harness/core/session-parts.js";
import { createHarnessSession } from "#src/harness/core/session.js";
import { runInvariants } from "#src/invariants/run.js";
import { knownToolsOptions } from "#src/replay/engine/known-tools.js";
import { BATCH_MARK } from "#src/invariants/no-input-after-stale.js";
import type { InvariantReport } from "#src/invariants/types.js";
import { createReplayer } from "#src/replay/replayer.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import type { CheckFailure, ScenarioResult } from "#src/schema/check-result.js";
import type { StepResult } from "#src/schema/harness-step.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import type { Scenario } from "#src/schema/scenario.js";
import { judgeInvariants, judgeSteps } from "./judge.js";
import type { LoadedCassette } from "./replay-cassette.js";

export interface ReferenceRun {
  steps: StepResult[];
  log: ReplayLogEntry[];
  invariants: InvariantReport;
  failures: CheckFailure[];
}

/** Runs a scenario's step script through the in-process reference harness (or a variant of it) against the replayer. */
export async function runReference(options: { scenario: Scenario; cassette: LoadedCassette; parts?: Partial<HarnessParts> }): Promise<ReferenceRun> {
  const { scenario, cassette } = options;
  const clock = createVirtualClock();
  const replayer = createReplayer({
    cassette: cassette.replay,
    faults: scenario.faults,
    seed: scenario.seed,
    clock,
    ...(cassette.tools ? { tools: cassette.tools } : {}),
  });
  const session = createHarnessSession({
    driver: replayer,
    clock,
    ...(options.parts ? { parts: options.parts } : {}),
    ...(scenario.timeout_ms !== undefined ? { timeoutMs: scenario.timeout_ms } : {}),
  });
  const steps: StepResult[] = [];
  for (const action of scenario.steps) {
    replayer.mark(BATCH_MARK); // each step is one turn of the model: a batch of its own
    steps.push(await session.step(action));
  }
  const log = replayer.log();
  const invariants = judgeLog({ scenario, log, cassette });
  const failures = [...judgeSteps({ expectations: scenario.expect.steps, steps }), ...judgeInvariants(invariants), ...unmatchedFailures(log)];
  return { steps, log, invariants, failures };
}

/** The scenario's invariants over a log; the tools the driver offers come from the best evidence the cassette holds (`knownToolsOf`). */
export function judgeLog(options: { scenario: Scenario; log: readonly ReplayLogEntry[]; cassette: LoadedCassette }): InvariantReport {
  const { scenario } = options;
  const o = scenario.invariant_options;
  return runInvariants(options.log, {
    ...(scenario.expect.invariants === "all" ? {} : { only: scenario.expect.invariants }),
    options: {
      ...knownToolsOptions(options.cassette.knownTools),
      ...(o?.max_repeats !== undefined ? { maxRepeats: o.max_repeats } : {}),
      ...(o?.max_identical !== undefined ? { maxIdentical: o.max_identical } : {}),
      ...(o?.stale_codes ? { staleCodes: o.stale_codes } : {}),
    },
  });
}

/** A request the cassette could not answer means the harness left the recorded flow. */
export function unmatchedFailures(log: readonly ReplayLogEntry[]): CheckFailure[] {
  return log.flatMap((e) =>
    e.type === "request" && e.outcome === "unmatched"
      ? [{ kind: "error" as const, message: `request #${e.n} (${e.tool ?? e.method}) matched nothing in the cassette: ${e.unmatched?.reason ?? "unmatched"}` }]
      : [],
  );
}

export function toScenarioResult(options: {
  scenario: Scenario;
  file: string;
  cassetteDir: string;
  cassette?: LoadedCassette;
  durationMs: number;
  failures: CheckFailure[];
  invariants: InvariantReport | undefined;
  steps?: StepResult[];
  exitCode?: number | null;
  requests: number;
}): ScenarioResult {
  const { scenario } = options;
  const source = options.cassette?.cassette.header.driver.source;
  return {
    id: scenario.id,
    title: scenario.title,
    file: options.file,
    cassette: options.cassetteDir,
    ...(source ? { source } : {}),
    passed: options.failures.length === 0,
    duration_ms: options.durationMs,
    failures: options.failures,
    invariants: options.invariants?.results ?? [],
    ...(options.steps ? { steps: options.steps.map((s, i) => ({ ...s, step: i + 1, action: scenario.steps[i]?.action ?? "?" })) } : {}),
    ...(options.exitCode !== undefined ? { exit_code: options.exitCode } : {}),
    requests: options.requests,
  };
}
