import path from "node:path";
import type { CheckFailure } from "#src/schema/check-result.js";
import { EXTERNAL_TIMEOUT_MS, runExternalHarness } from "./external-run.js";
import { judgeInvariants } from "./judge.js";
import type { LogSink, ScenarioRunner } from "./run-check.js";
import { loadReplayCassette } from "./replay-cassette.js";
import { judgeLog, toScenarioResult, unmatchedFailures } from "./run-reference.js";

/**
 * Runs an external harness command per scenario with a replaying `cua-driver` shim first on PATH.
 * The harness gets the scenario file in CUA_CONTRACT_SCENARIO (its `steps` are the task); only the
 * invariants, unmatched requests and its exit code are judged.
 */
export function externalRunner(options: { command: string; now: () => number; timeoutMs?: number; onLog?: LogSink }): ScenarioRunner {
  return async (loaded) => {
    const started = options.now();
    const { scenario } = loaded;
    const cassette = loadReplayCassette(loaded.cassetteDir);
    const timeoutMs = options.timeoutMs ?? EXTERNAL_TIMEOUT_MS;
    const run = await runExternalHarness({
      command: options.command,
      cassette,
      faults: scenario.faults,
      seed: scenario.seed,
      scenarioFile: path.resolve(loaded.file),
      timeoutMs,
    });
    options.onLog?.(loaded, run.log);
    const failures: CheckFailure[] = [];
    if (run.timedOut) failures.push({ kind: "exit_code", message: `the harness did not finish within ${timeoutMs / 1000} s and was stopped` });
    else if (run.exitCode !== scenario.expect.exit_code) {
      const tail = run.output.trim().split("\n").slice(-3).join(" | ");
      failures.push({
        kind: "exit_code",
        message: `the harness exited ${run.exitCode ?? run.signal}, expected ${scenario.expect.exit_code}${tail ? ` (last output: ${tail})` : ""}`,
      });
    }
    const invariants = judgeLog({ scenario, log: run.log, cassette });
    failures.push(...judgeInvariants(invariants), ...unmatchedFailures(run.log));
    return toScenarioResult({
      scenario,
      file: loaded.file,
      cassetteDir: loaded.cassetteDir,
      cassette,
      durationMs: options.now() - started,
      failures,
      invariants,
      exitCode: run.exitCode,
      requests: run.log.filter((e) => e.type === "request").length,
    });
  };
}
