import { existsSync } from "node:fs";
import path from "node:path";
import { CASSETTE_FILE } from "#src/cassette/cassette.js";
import { createRedactor } from "#src/cassette/redact.js";
import { UserError } from "#src/errors.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION, type CassetteHeader } from "#src/schema/cassette.js";
import { harnessExitCode, runHarness, type HarnessRunOptions } from "#src/shim-server/run-harness.js";
import { startShimServer, type ShimServer } from "#src/shim-server/server.js";
import type { ShimKind } from "#src/shim-server/shim-files.js";
import { version as recorderVersion } from "#src/version.js";
import { createDriverRecorderBackend } from "./driver-backend.js";
import { startClock } from "#src/transports/recording/recording-parts.js";
import { findDriver } from "./find-driver.js";
import { captureIdentity } from "./identity.js";
import { probeAndIdentify } from "./probe-capture.js";
import { createRecordingSink } from "#src/cassette/recording-sink.js";
import { sdkRecordingDriver } from "./sdk/recording-driver.js";
import { startRecordingDesktop } from "#src/desktop/recording-desktop.js";
import { checkHttpRecording, startHttpRecording, type HttpRecordingOptions } from "#src/transports/http/recording.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ToolInfo } from "#src/driver/port.js";
import { createRecordFaults, keepingEvents } from "#src/transports/recording/record-faults.js";
import { signFrames } from "#src/harness/screen/sign-frames.js";

export interface RecordOptions extends HttpRecordingOptions {
  out: string;
  /** The harness command and its arguments. */
  command: string[];
  /** A cua-driver executable, or `sdk[:VERSION]` for the published runtime in process. */
  driver?: string;
  /** Run the harness on a throwaway X desktop (Xvfb, at-spi, openbox, gtk3-demo). */
  desktop?: boolean;
  append?: boolean;
  force?: boolean;
  redact?: boolean;
  redactPatterns?: string[];
  /** Provenance stamped in the header for an executable driver: a real binary (default) or a test double. */
  driverSource?: "binary" | "synthetic";
  /** Take a capability probe of the driver and store it as probe.json (default true; skipped when appending). */
  probe?: boolean;
  /** Inject this plan's faults into the harness's calls (per-call CLI and MCP stdio), as replay would serve them. */
  faults?: FaultPlan;
  /** Seed for the plan's probabilistic rules (default: the plan's own seed, else 0). */
  seed?: number;
  shim?: ShimKind | "auto";
  /** Called once the shim is ready (before the harness starts), e.g. for logs. */
  onReady?: (server: ShimServer) => void;
  /** The harness's working directory and where its output goes (default: this process's, inherited). */
  harness?: HarnessRunOptions & {
    /** Variables added to this process's environment for the harness (the driver calls it makes and the probe see them too). */
    env?: Record<string, string>;
  };
}

export interface RecordResult {
  /** The harness's exit code (128 + n when it died of signal n). */
  exitCode: number;
  signal?: NodeJS.Signals;
  cassetteDir: string;
  warnings: string[];
  /** What the harness printed, when `harness.output` is `pipe`. */
  harnessOutput?: { stdout: string; stderr: string };
}

/**
 * Runs a harness under the recorder: a private `cua-driver` shim first on PATH (and in CUA_DRIVER)
 * forwards each call to the real driver and appends it to the cassette as it happens.
 */
export async function record(options: RecordOptions): Promise<RecordResult> {
  if (options.desktop) {
    // The in-process runtime (--driver sdk) needs the X server to outlive this process (recording-desktop.ts).
    await using _desktop = await startRecordingDesktop({ xServerAfterExit: String(options.driver ?? "").startsWith("sdk") });
    return await record({ ...options, desktop: false });
  }
  if (options.command.length === 0) {
    throw new UserError("no harness command to run", {
      code: "USAGE",
      field: "--",
      fix: "Put the harness command after `--`, e.g. `cua-contract record --out rec -- python3 harness.py`.",
    });
  }
  const recording = await openRecording(options);
  try {
    options.onReady?.(recording.server);
    const { env: _env, ...harness } = options.harness ?? {};
    const outcome = await runHarness({ ...harness, command: options.command, env: recording.env });
    const result: RecordResult = {
      exitCode: harnessExitCode(outcome),
      cassetteDir: recording.dir,
      warnings: recording.warnings,
      ...(outcome.output ? { harnessOutput: outcome.output } : {}),
    };
    await recording.close();
    if (outcome.signal) result.signal = outcome.signal;
    return result;
  } finally {
    await recording.close();
  }
}

/** A recording in progress: the shim server, the environment a harness needs, and its closer. */
export interface OpenRecording {
  server: ShimServer;
  /** This process's environment with the shim (and any HTTP proxy) in it: give it to the harness. */
  env: Record<string, string>;
  dir: string;
  /** Identity warnings now; HTTP proxy warnings are added on close. */
  warnings: string[];
  /** Stops the proxy and the shim server, closes the cassette and signs its new frames (idempotent). */
  close(): Promise<void>;
}

/**
 * Starts recording without running anything: the identity calls and probe are taken, the shim
 * serves whatever connects until `close` (a harness process, or an in-process Driver over the shim).
 */
export async function openRecording(options: Omit<RecordOptions, "command" | "desktop" | "onReady">): Promise<OpenRecording> {
  const patterns = options.redactPatterns ?? [];
  for (const p of patterns) {
    try {
      new RegExp(p, "g");
    } catch (error) {
      throw new UserError(`--redact ${JSON.stringify(p)} is not a valid regular expression (${(error as Error).message})`, {
        code: "USAGE",
        field: "--redact",
        fix: "Pass a JavaScript regular expression, e.g. --redact 'sk-[A-Za-z0-9]+'.",
      });
    }
  }
  const http = checkHttpRecording(options);
  const sdk = await sdkRecordingDriver(options.driver);
  const driver = sdk ? (sdk.info.location ?? "sdk") : findDriver({ ...(options.driver !== undefined ? { driver: options.driver } : {}) });
  let redaction = { enabled: options.redact ?? true, ...(patterns.length ? { patterns } : {}) };
  const clock = startClock();
  const recordedAt = new Date().toISOString();
  const env = { ...process.env, ...options.harness?.env } as Record<string, string>;
  const driverInfo: CassetteHeader["driver"] = sdk?.info ?? {
    version: null,
    platform: `${process.platform}-${process.arch}`,
    source: options.driverSource ?? "binary",
    location: driver,
  };
  const headerDraft: Omit<CassetteHeader, "transport"> = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    driver: driverInfo,
    recorded_at: recordedAt,
    recorder: { name: "cua-contract", version: recorderVersion },
    redaction,
    ...(options.faults ? { faults: { plan: options.faults, ...(options.seed !== undefined ? { seed: options.seed } : {}) } } : {}),
  };
  // Appending keeps the cassette's header, so its probe.json stays the one taken with it.
  const probe = (options.probe ?? true) && !(options.append && existsSync(path.join(options.out, CASSETTE_FILE)));
  const opened = createRecordingSink({ dir: options.out, header: headerDraft, append: options.append ?? false, force: options.force ?? false });
  if (opened.existing) {
    // Appending: the cassette's own redaction holds for the new events too (docs/cassettes.md, "Redaction").
    const was = opened.existing.redaction ?? { enabled: true };
    if (was.enabled !== redaction.enabled) {
      opened.close();
      throw new UserError(
        `the cassette was recorded with redaction ${was.enabled ? "on" : "off"}; --append cannot add events with it ${redaction.enabled ? "on" : "off"}`,
        {
          code: "USAGE",
          file: path.join(options.out, CASSETTE_FILE),
          field: "--no-redact",
          fix: was.enabled
            ? "Drop --no-redact, or record into another --out directory."
            : "Pass --no-redact as the recording did, or record into another --out directory.",
        },
      );
    }
    const had = was.patterns ?? [];
    const all = [...new Set([...had, ...patterns])];
    redaction = { enabled: was.enabled, ...(all.length ? { patterns: all } : {}) };
    opened.addPatterns(patterns.filter((p) => !had.includes(p)));
  }
  const redactor = createRedactor(redaction);
  const kept = options.faults ? keepingEvents(opened) : undefined;
  const sink = kept?.sink ?? opened;
  const parts = { sink, redactor, clock };
  const { identity, snapshot } = sdk
    ? { identity: await sdk.identify(parts), snapshot: probe ? await sdk.probe() : undefined }
    : probe
      ? await probeAndIdentify({ ...parts, driver, env })
      : { identity: await captureIdentity({ ...parts, driver, env }), snapshot: undefined };
  if (snapshot) driverInfo.probe_sha256 = opened.putProbe(snapshot);
  const tools = snapshot?.tools_list?.tools as ToolInfo[] | undefined;
  const faults =
    options.faults && kept
      ? createRecordFaults({
          plan: options.faults,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          driverVersion: identity.version,
          ...(tools ? { tools } : {}),
          events: kept.events,
        })
      : undefined;
  const harnessParts = faults ? { ...parts, faults } : parts;
  driverInfo.version = identity.version;
  if (identity.versionOutput !== undefined) driverInfo.version_output = identity.versionOutput;
  if (identity.manifestSha256 !== undefined) driverInfo.manifest_sha256 = identity.manifestSha256;
  const server = await startShimServer({
    backend: sdk ? sdk.backend(harnessParts) : createDriverRecorderBackend({ ...harnessParts, driver }),
    shim: options.shim ?? "auto",
  });
  const httpWarnings: string[] = [];
  const proxy = http
    ? await startHttpRecording({ ...parts, http, env, warnings: httpWarnings }).catch(async (e: unknown) => {
        await server.close();
        throw e;
      })
    : undefined;
  const warnings = [...identity.warnings];
  let closed: Promise<void> | undefined;
  return {
    server,
    env: { ...env, ...server.env, ...proxy?.env },
    dir: sink.dir,
    warnings,
    close: () =>
      (closed ??= (async () => {
        try {
          if (proxy) await proxy.close().then(() => warnings.push(...httpWarnings));
        } finally {
          await server.close();
          sink.close();
        }
        // Each new frame's screen signature beside it, so a report need not decode it (docs/decisions/0174).
        await signFrames({ dir: sink.dir });
      })()),
  };
}
