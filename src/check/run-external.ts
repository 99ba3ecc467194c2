import path from "node:path";
import { execa } from "execa";
import { createReplayBackend } from "../replay/backend.js";
import { createReplaySession } from "../replay/session.js";
import { systemClock } from "../replay/system-clock.js";
import { startShimServer } from "../shim-server/server.js";
import type { CheckFailure } from "../schema/check-result.js";
import type { LogSink, ScenarioRunner } from "./run-check.js";
import { loadReplayCassette } from "./replay-cassette.js";
import { judgeInvariants } from "./judge.js";
import { judgeLog, toScenarioResult, unmatchedFailures } from "./run-reference.js";

/** How long one external harness run may take before it is stopped and failed. */
export const EXTERNAL_TIMEOUT_MS = 120_000;

/**
 * Runs an external harness command per scenario with a replaying `cua-driver` shim first on PATH.
 * The harness gets the scenario file in CUA_CONTRACT_SCENARIO (its `steps` are the task); only the
 * invariants and its exit code are judged.
 */
export function externalRunner(options: { command: string; now: () => number; timeoutMs?: number; onLog?: LogSink }): ScenarioRunner {
  return async (loaded) => {
    const started = options.now();
    const { scenario } = loaded;
    const cassette = loadReplayCassette(loaded.cassetteDir);
    const session = createReplaySession({
      cassette: cassette.replay,
      source: cassette.cassette.file,
      faults: scenario.faults,
      seed: scenario.seed,
      clock: systemClock,
      ...(cassette.tools ? { tools: cassette.tools } : {}),
    });
    const server = await startShimServer({ backend: createReplayBackend({ session }) });
    let exitCode: number | null;
    const failures: CheckFailure[] = [];
    try {
      const run = await execa(options.command, {
        shell: true,
        reject: false,
        all: true,
        timeout: options.timeoutMs ?? EXTERNAL_TIMEOUT_MS,
        env: { ...server.env, CUA_CONTRACT_SCENARIO: path.resolve(loaded.file) },
      });
      exitCode = run.exitCode ?? null;
      if (run.timedOut) failures.push({ kind: "exit_code", message: `the harness did not finish within ${(options.timeoutMs ?? EXTERNAL_TIMEOUT_MS) / 1000} s and was stopped` });
      else if (exitCode !== scenario.expect.exit_code) {
        const tail = String(run.all ?? "").trim().split("\n").slice(-3).join(" | ");
        failures.push({ kind: "exit_code", message: `the harness exited ${exitCode ?? run.signal}, expected ${scenario.expect.exit_code}${tail ? ` (last output: ${tail})` : ""}` });
      }
    } finally {
      await server.close();
    }
    const log = session.entries();
    options.onLog?.(loaded, log);
    const invariants = judgeLog({ scenario, log, cassette });
    failures.push(...judgeInvariants(invariants), ...unmatchedFailures(log));
    return toScenarioResult({
      scenario,
      file: loaded.file,
      cassetteDir: loaded.cassetteDir,
      cassette,
      durationMs: options.now() - started,
      failures,
      invariants,
      exitCode,
      requests: log.filter((e) => e.type === "request").length,
    });
  };
}
