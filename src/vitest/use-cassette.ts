import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCliDriver } from "#src/transports/cli/driver.js";
import { openRecording, type OpenRecording } from "#src/recorder/record-session.js";
import { createReplayBackend } from "#src/transports/cli/replay-backend.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplayer, type Replayer } from "#src/replay/replayer.js";
import { createObservationFile, OBSERVE_ENV, type ObservationFile } from "#src/replay/observation-file.js";
import { createReplaySession, type ReplaySession } from "#src/replay/session.js";
import { systemClock } from "#src/runtime/clock-system.js";
import { startRecordingDesktop } from "#src/desktop/recording-desktop.js";
import { startShimServer, type ShimServer } from "#src/shim-server/server.js";
import { runCaptured } from "./harness-run.js";
import { resolveMode } from "./mode.js";
import { recordMissingHandle } from "./record-missing-handle.js";
import type { CassetteHandle, UseCassetteOptions } from "./cassette-handle.js";

export type { CassetteHandle, UseCassetteOptions } from "./cassette-handle.js";

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
    knownTools: cassette.knownTools,
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
