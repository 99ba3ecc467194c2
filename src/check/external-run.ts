import { execa } from "execa";
import { createReplayBackend } from "#src/transports/cli/replay-backend.js";
import { createObservationFile, OBSERVE_ENV } from "#src/replay/observation-file.js";
import { createReplaySession } from "#src/replay/session.js";
import { systemClock } from "#src/runtime/clock-system.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { startShimServer } from "#src/shim-server/server.js";
import type { LoadedCassette } from "./replay-cassette.js";

/** How long one external harness run may take before it is stopped and failed. */
export const EXTERNAL_TIMEOUT_MS = 120_000;

export interface ExternalRun {
  exitCode: number | null;
  signal?: string;
  timedOut: boolean;
  /** stdout and stderr, interleaved. */
  output: string;
  log: ReplayLogEntry[];
}

/**
 * Runs a harness command line once with a replaying `cua-driver` shim first on PATH (and in
 * CUA_DRIVER); the scenario file's path goes in CUA_CONTRACT_SCENARIO. The shim server is closed
 * before this returns.
 */
export async function runExternalHarness(options: {
  command: string;
  cassette: LoadedCassette;
  faults: FaultPlan;
  seed?: number;
  scenarioFile: string;
  timeoutMs?: number;
}): Promise<ExternalRun> {
  const { cassette } = options;
  using observations = createObservationFile();
  const session = createReplaySession({
    observations,
    cassette: cassette.replay,
    source: cassette.cassette.file,
    faults: options.faults,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    clock: systemClock,
    ...(cassette.tools ? { tools: cassette.tools } : {}),
  });
  const server = await startShimServer({ backend: createReplayBackend({ session }) });
  try {
    const run = await execa(options.command, {
      shell: true,
      reject: false,
      all: true,
      timeout: options.timeoutMs ?? EXTERNAL_TIMEOUT_MS,
      env: { ...server.env, CUA_CONTRACT_SCENARIO: options.scenarioFile, [OBSERVE_ENV]: observations.path },
    });
    return {
      exitCode: run.exitCode ?? null,
      ...(run.signal ? { signal: run.signal } : {}),
      timedOut: run.timedOut === true,
      output: String(run.all ?? ""),
      log: session.entries(),
    };
  } finally {
    await server.close();
  }
}
