import { startRecordingDesktop } from "#src/desktop/recording-desktop.js";
import { createCliDriver } from "#src/transports/cli/driver.js";
import { refuseInCi } from "#src/recorder/record-missing/ci-guard.js";
import { openRecordMissing, type OpenRecordMissing, type RecordMissingSummary } from "#src/recorder/record-missing/record-missing.js";
import { sdkDriverVersion } from "#src/recorder/sdk/recording-driver.js";
import { runCaptured } from "./harness-run.js";
import type { CassetteHandle, UseCassetteOptions } from "./cassette-handle.js";

/**
 * `record-missing`: the cassette answers what it has, the live driver (through the same shim a
 * harness process uses, docs/decisions/0104) what it lacks, and the grown cassette is written when
 * the handle closes. Refused under CI=true unless `allowInCi` (or CUA_CONTRACT_ALLOW_IN_CI=1).
 */
export async function recordMissingHandle(
  dir: string,
  options: UseCassetteOptions,
  env: Record<string, string | undefined>,
  writeLog: (file: string, handle: CassetteHandle) => void,
): Promise<CassetteHandle> {
  const allowInCi = options.allowInCi ?? env.CUA_CONTRACT_ALLOW_IN_CI === "1";
  refuseInCi({
    env,
    allowInCi,
    flag: "CUA_CONTRACT_MODE=record-missing",
    allow: "pass allowInCi: true (or set CUA_CONTRACT_ALLOW_IN_CI=1) when this job is meant to grow it",
  });
  const driverName = options.driver ?? env.CUA_CONTRACT_DRIVER ?? "sdk";
  const desktop =
    (options.desktop ?? env.CUA_CONTRACT_DESKTOP === "1")
      ? await startRecordingDesktop({ xServerAfterExit: sdkDriverVersion(driverName) !== undefined })
      : undefined;
  let run: OpenRecordMissing;
  try {
    run = await openRecordMissing({
      dir,
      driver: driverName,
      ...(options.driverSource ? { driverSource: options.driverSource } : {}),
      env,
      allowInCi: true,
      ...(options.match ? { match: options.match } : {}),
      ...(options.ignore ? { ignore: options.ignore } : {}),
    });
  } catch (error) {
    await desktop?.stop();
    throw error;
  }
  // an in-process harness reads the desktop's app pid from here: the recorded one, as the cassette's answers name it
  if (desktop && run.env.CUA_DESKTOP_APP_PID !== undefined) process.env.CUA_DESKTOP_APP_PID = run.env.CUA_DESKTOP_APP_PID;
  const driver = createCliDriver({ command: run.env.CUA_DRIVER!, env: run.env });
  let grown: RecordMissingSummary | undefined;
  let closed: Promise<void> | undefined;
  const handle: CassetteHandle = {
    dir,
    mode: "record-missing",
    driver,
    get grown() {
      return grown;
    },
    env: async () => ({ ...run.env }),
    // record-missing judges nothing: a declared look has nothing to count for
    observe: () => {},
    run: (command, o = {}) =>
      runCaptured({ command, env: { ...run.env, ...o.env }, ...(o.cwd ? { cwd: o.cwd } : {}), ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}) }),
    log: () => [],
    summary: () => ({ served: grown?.served ?? 0, unmatched: 0, faults: 0, unused: [] }),
    writeLog: (file) => writeLog(file, handle),
    close: () =>
      (closed ??= (async () => {
        try {
          grown = await run.finish();
        } finally {
          await desktop?.stop();
        }
      })()),
    [Symbol.asyncDispose]: () => handle.close(),
  };
  return handle;
}
