import { UserError } from "#src/errors.js";
import type { HarnessParts } from "#src/harness/core/session-parts.js";
import type { CheckResult, ScenarioResult } from "#src/schema/check-result.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { loadScenario, type LoadedScenario } from "./load-scenario.js";
import { loadReplayCassette } from "./replay-cassette.js";
import { runReference, toScenarioResult } from "./run-reference.js";

export type ScenarioRunner = (loaded: LoadedScenario) => Promise<ScenarioResult>;

/** Receives each scenario's replay log (e.g. for the HTML report). */
export type LogSink = (loaded: LoadedScenario, log: ReplayLogEntry[]) => void;

/** Runs each scenario with the in-process reference harness (or a variant given by `parts`). */
export function referenceRunner(options: { parts?: Partial<HarnessParts>; now: () => number; onLog?: LogSink }): ScenarioRunner {
  return async (loaded) => {
    const started = options.now();
    const cassette = loadReplayCassette(loaded.cassetteDir);
    const run = await runReference({ scenario: loaded.scenario, cassette, ...(options.parts ? { parts: options.parts } : {}) });
    options.onLog?.(loaded, run.log);
    return toScenarioResult({
      scenario: loaded.scenario,
      file: loaded.file,
      cassetteDir: loaded.cassetteDir,
      cassette,
      durationMs: options.now() - started,
      failures: run.failures,
      invariants: run.invariants,
      steps: run.steps,
      requests: run.log.filter((e) => e.type === "request").length,
    });
  };
}

/**
 * Loads every scenario first (so bad input fails before anything runs), then runs them in order.
 * `onResult` sees each result as it completes (for progress output).
 */
export async function runCheck(options: {
  files: readonly string[];
  harness: string;
  runner: ScenarioRunner;
  now: () => number;
  onResult?: (result: ScenarioResult) => void;
}): Promise<CheckResult> {
  const started = options.now();
  const loaded = options.files.map((f) => loadScenario(f));
  const seen = new Map<string, string>();
  for (const l of loaded) {
    const other = seen.get(l.scenario.id);
    if (other) {
      throw new UserError(`scenario id "${l.scenario.id}" is also the id of ${other}`, {
        code: "BAD_SCENARIO",
        file: l.file,
        field: "id",
        fix: "Give every scenario its own id.",
      });
    }
    seen.set(l.scenario.id, l.file);
  }
  const scenarios: ScenarioResult[] = [];
  for (const l of loaded) {
    const result = await options.runner(l);
    scenarios.push(result);
    options.onResult?.(result);
  }
  const passed = scenarios.filter((s) => s.passed).length;
  return { harness: options.harness, passed, failed: scenarios.length - passed, duration_ms: options.now() - started, scenarios };
}
