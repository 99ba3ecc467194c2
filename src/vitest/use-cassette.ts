import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Driver } from "#src/driver/port.js";
import { createCliDriver } from "#src/transports/cli/driver.js";
import { openRecording, type OpenRecording } from "#src/recorder/record-session.js";
import { createReplayBackend } from "#src/transports/cli/replay-backend.js";
import type { MatchMode } from "#src/replay/engine/matcher.js";
import { loadReplayCassette } from "#src/replay/load.js";
import type { ReplaySpeed } from "#src/replay/recorded-timing.js";
import { createReplayer, type Replayer } from "#src/replay/replayer.js";
import { createObservationFile, OBSERVE_ENV, type ObservationFile } from "#src/replay/observation-file.js";
import { createReplaySession, type ReplaySession } from "#src/replay/session.js";
import { systemClock } from "#src/runtime/clock-system.js";
import { startRecordingDesktop } from "#src/desktop/recording-desktop.js";
import type { Clock } from "#src/driver/port.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry, SummaryEntry } from "#src/schema/replay-log.js";
import { startShimServer, type ShimServer } from "#src/shim-server/server.js";
import { runCaptured, type HarnessRun } from "./harness-run.js";
import { resolveMode, type CassetteMode } from "./mode.js";
import { recordMissingHandle } from "./record-missing-handle.js";
import type { RecordMissingSummary } from "#src/recorder/record-missing/record-missing.js";

export interface UseCassetteOptions {
  /** Default: `CUA_CONTRACT_MODE`, else `replay`. */
  mode?: CassetteMode;
  faults?: FaultPlan;
  seed?: number;
  match?: MatchMode;
  ignore?: readonly string[];
  speed?: ReplaySpeed;
  /** Clock of the in-process replayer (default virtual: delays and hangs take no real time). */
  clock?: Clock;
  /** record/record-missing/passthrough: `sdk[:VERSION]` (default `CUA_CONTRACT_DRIVER`, else `sdk`) or a cua-driver path. */
  driver?: string;
  /** record/record-missing/passthrough: start a throwaway X desktop (default: `CUA_CONTRACT_DESKTOP=1`). */
  desktop?: boolean;
  /** record-missing: provenance of an executable `driver` for the added calls, a real binary (default) or a test double. */
  driverSource?: "binary" | "synthetic";
  /** record-missing: run even when CI=true (default: `CUA_CONTRACT_ALLOW_IN_CI=1`). */
  allowInCi?: boolean;
  /** Environment to read the defaults from (default process.env). */
  env?: Record<string, string | undefined>;
}

/** A cassette opened for one test: a Driver for an in-process harness, and a runner for a harness process. */
export interface CassetteHandle extends AsyncDisposable {
  readonly dir: string;
  readonly mode: CassetteMode;
  /** For an in-process harness: the replayer, or (record/passthrough) the live driver through the recording shim. */
  readonly driver: Driver;
  /** For a harness process you start yourself: PATH with the `cua-driver` shim first, and CUA_DRIVER. */
  env(): Promise<Record<string, string>>;
  /** Runs a harness process (argv) with that environment and captures its output. */
  run(command: readonly string[], options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<HarnessRun>;
  /**
   * Declare a look the harness took by its own means (replay mode): the invariants count it as a
   * fresh observation. A harness process declares one by appending a line to the file named by
   * `CUA_CONTRACT_OBSERVE` in `env()`. Does nothing in record and passthrough modes.
   */
  observe(note?: string): void;
  /** The replay log so far (empty in record and passthrough modes: nothing was replayed). */
  log(): ReplayLogEntry[];
  /** Served, unmatched, faults and the recorded calls never used (replay mode). */
  summary(): Omit<SummaryEntry, "type" | "t_ms">;
  /** record-missing: what the run served, added and paired, once the handle is closed. */
  readonly grown?: RecordMissingSummary | undefined;
  /** Writes the log as JSONL with a closing summary, as `replay --log` does (input for `cassette prune --log`). */
  writeLog(file: string): void;
  close(): Promise<void>;
}

/**
 * Opens a cassette directory for a test (docs/testing.md). In replay mode nothing can reach a real
 * driver; in record mode the directory is recorded afresh from the live driver when the handle closes.
 */
export async function useCassette(dir: string, options: UseCassetteOptions = {}): Promise<CassetteHandle> {
  const env = options.env ?? process.env;
  const mode = resolveMode(options.mode, env);
  if (mode === "record-missing") return recordMissingHandle(dir, options, env, writeLogFile);
  return mode === "replay" ? replayHandle(dir, options) : liveHandle(dir, mode, options, env);
}

function replayHandle(dir: string, options: UseCassetteOptions): CassetteHandle {
  const cassette = loadReplayCassette(dir);
  const common = {
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.speed ? { speed: options.speed } : {}),
  };
  let replayer: Replayer | undefined;
  let session: ReplaySession | undefined;
  let server: ShimServer | undefined;
  let observations: ObservationFile | undefined;
  const shim = async () => {
    observations ??= createObservationFile();
    session ??= createReplaySession({ cassette, source: cassette.cassette.file, clock: systemClock, observations, ...common });
    server ??= await startShimServer({ backend: createReplayBackend({ session }) });
    return server;
  };
  const handle: CassetteHandle = {
    dir,
    mode: "replay",
    get driver() {
      return (replayer ??= createReplayer({ cassette, ...common, ...(options.clock ? { clock: options.clock } : {}) }));
    },
    env: async () => {
      const started = await shim();
      return { ...(process.env as Record<string, string>), ...started.env, ...(observations ? { [OBSERVE_ENV]: observations.path } : {}) };
    },
    observe(note) {
      replayer?.observe(note);
      session?.observe(note);
    },
    async run(command, o = {}) {
      const env = { ...(await handle.env()), ...o.env };
      return runCaptured({ command, env, ...(o.cwd ? { cwd: o.cwd } : {}), ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}) });
    },
    log: () => [...(replayer?.log() ?? []), ...(session?.entries() ?? [])],
    summary() {
      const parts = [replayer?.summary(), session?.engine.summary(session.t())].filter((s) => s !== undefined);
      if (parts.length === 0) return { served: 0, unmatched: 0, faults: 0, unused: [] };
      return {
        served: parts.reduce((n, s) => n + s.served, 0),
        unmatched: parts.reduce((n, s) => n + s.unmatched, 0),
        faults: parts.reduce((n, s) => n + s.faults, 0),
        // a recorded call is unused only if neither the driver nor the shim used it
        unused: parts.length === 1 ? parts[0]!.unused : parts[0]!.unused.filter((u) => parts[1]!.unused.some((v) => v.seq === u.seq)),
      };
    },
    writeLog: (file) => writeLogFile(file, handle),
    async close() {
      await server?.close();
      server = undefined;
      observations?.[Symbol.dispose]();
    },
    [Symbol.asyncDispose]: () => handle.close(),
  };
  return handle;
}

async function liveHandle(
  dir: string,
  mode: "record" | "passthrough",
  options: UseCassetteOptions,
  env: Record<string, string | undefined>,
): Promise<CassetteHandle> {
  const desktop = (options.desktop ?? env.CUA_CONTRACT_DESKTOP === "1") ? await startRecordingDesktop() : undefined;
  const scratch = mode === "passthrough" ? mkdtempSync(path.join(os.tmpdir(), "cua-contract-passthrough-")) : undefined;
  let recording: OpenRecording;
  try {
    recording = await openRecording({ out: scratch ?? dir, driver: options.driver ?? env.CUA_CONTRACT_DRIVER ?? "sdk", force: true });
  } catch (error) {
    await desktop?.stop();
    throw error;
  }
  const driver = createCliDriver({ command: recording.env.CUA_DRIVER!, env: recording.env });
  let closed = false;
  const handle: CassetteHandle = {
    dir,
    mode,
    driver,
    env: async () => ({ ...recording.env }),
    // the live driver is the world: nothing is judged, so a declared look has nothing to count for
    observe: () => {},
    run: (command, o = {}) =>
      runCaptured({ command, env: { ...recording.env, ...o.env }, ...(o.cwd ? { cwd: o.cwd } : {}), ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}) }),
    log: () => [],
    summary: () => ({ served: 0, unmatched: 0, faults: 0, unused: [] }),
    writeLog: (file) => writeLogFile(file, handle),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await recording.close();
      } finally {
        if (scratch) rmSync(scratch, { recursive: true, force: true });
        await desktop?.stop();
      }
    },
    [Symbol.asyncDispose]: () => handle.close(),
  };
  return handle;
}

function writeLogFile(file: string, handle: CassetteHandle): void {
  const entries = handle.log();
  const t = entries.reduce((m, e) => Math.max(m, e.t_ms), 0);
  const lines = [...entries, { type: "summary", t_ms: t, ...handle.summary() }].map((e) => JSON.stringify(e));
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
}
