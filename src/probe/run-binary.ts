import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import { UserError } from "#src/errors.js";
import {
  DriverManifestSchema,
  PROBE_FORMAT,
  PROBE_VERSION,
  type DaemonStatus,
  type DriverManifest,
  type DriverMetadata,
  type ProbeSnapshot,
  type ProbeStep,
} from "#src/schema/probe-snapshot.js";
import { parseVersion } from "#src/util/versions.js";
import { QUIET_DRIVER_ENV, runDriverWithDeadline } from "#src/runtime/driver-process.js";
import { probeMcp } from "#src/transports/mcp/client.js";
import { addModernEra } from "#src/transports/mcp/probe-eras.js";
import { daemonMetadata, socketFromStatus } from "./daemon-metadata.js";
import { recordStep, runStep, timeStep, type StepOutcome } from "./step.js";

export const DEFAULT_STEP_TIMEOUT_MS = 10_000;

/** One run of a driver CLI step, as the probe reads it. */
export interface ProbeCliRun {
  exitCode: number | undefined;
  signal?: string | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs one CLI step; the recorder passes its own so the identity calls it records are the probe's. */
export type ProbeCliRunner = (options: { driver: string; args: string[]; env: NodeJS.ProcessEnv; timeoutMs: number }) => Promise<ProbeCliRun>;

/** The default step runner: the driver as a child process with the step's deadline. */
export const runProbeCli: ProbeCliRunner = async ({ driver, args, env, timeoutMs }) => {
  const r = await runDriverWithDeadline(driver, args, { env, timeout: timeoutMs, forceKillAfterDelay: 1000, stdin: "ignore", stripFinalNewline: false });
  return { exitCode: r.exitCode, signal: r.signal, stdout: String(r.stdout), stderr: String(r.stderr), timedOut: Boolean(r.timedOut) };
};

/** Probes a cua-driver executable with read-only steps only, each with its own deadline. */
export async function probeBinary(options: {
  driver: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  runCli?: ProbeCliRunner;
}): Promise<ProbeSnapshot> {
  const driver = await resolveExecutable(options.driver);
  const timeoutMs = options.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  // quiet, side-effect-free children: no telemetry workers, no update check
  const env = { ...process.env, ...options.env, ...QUIET_DRIVER_ENV };
  const steps: ProbeStep[] = [];
  const runCli = options.runCli ?? runProbeCli;
  const run = (args: string[]) => runCli({ driver, args, env, timeoutMs });

  // The CLI steps are independent and read-only: they run side by side, each with its own deadline.
  const [versionStep, manifestStep, listToolsStep, statusStep] = await Promise.all([
    timeStep(async (): Promise<StepOutcome<string>> => {
      const r = await run(["--version"]);
      if (r.timedOut) return { status: "failed", timedOut: true, message: `--version did not finish within ${timeoutMs} ms` };
      if (r.exitCode !== 0) return { status: "failed", message: `--version exited ${r.exitCode ?? r.signal}${tail(r.stderr)}` };
      return { status: "succeeded", value: String(r.stdout) };
    }),
    timeStep(async (): Promise<StepOutcome<DriverManifest>> => {
      const r = await run(["manifest"]);
      if (r.timedOut) return { status: "failed", timedOut: true, message: `manifest did not finish within ${timeoutMs} ms` };
      if (r.exitCode !== 0) return { status: "unsupported", message: `manifest exited ${r.exitCode ?? r.signal}${tail(r.stderr)}` };
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(r.stdout));
      } catch {
        return { status: "failed", message: `manifest printed non-JSON: ${JSON.stringify(String(r.stdout).slice(0, 80))}` };
      }
      const result = DriverManifestSchema.safeParse(parsed);
      if (!result.success) {
        const issue = result.error.issues[0];
        return { status: "failed", message: `manifest is not a cua-driver manifest (${issue?.path.join(".") || "root"}: ${issue?.message})` };
      }
      return { status: "succeeded", value: result.data };
    }),
    timeStep(async (): Promise<StepOutcome<string[]>> => {
      const r = await run(["list-tools"]);
      if (r.timedOut) return { status: "failed", timedOut: true, message: `list-tools did not finish within ${timeoutMs} ms` };
      if (r.exitCode !== 0) return { status: "unsupported", message: `list-tools exited ${r.exitCode ?? r.signal}${tail(r.stderr)}` };
      const names = String(r.stdout)
        .split("\n")
        .map((l) => l.split(":")[0]!.trim())
        .filter((n) => /^[A-Za-z0-9_.-]+$/.test(n));
      return { status: "succeeded", value: names };
    }),
    timeStep(async (): Promise<StepOutcome<DaemonStatus>> => {
      const r = await run(["status"]);
      if (r.timedOut) return { status: "failed", timedOut: true, message: `status did not finish within ${timeoutMs} ms` };
      const stdout = String(r.stdout);
      const stderr = String(r.stderr);
      if (r.exitCode === 0) return { status: "succeeded", value: { running: true, exit_code: 0, stdout, stderr } };
      if (r.exitCode === 1 && /not running/i.test(stderr)) return { status: "succeeded", value: { running: false, exit_code: 1, stdout, stderr } };
      return { status: "unsupported", message: `status exited ${r.exitCode ?? r.signal}${tail(stderr)}` };
    }),
  ]);
  const versionOutput = recordStep("version", steps, versionStep.outcome, versionStep.ms);
  const manifest = recordStep("manifest", steps, manifestStep.outcome, manifestStep.ms);
  const listTools = recordStep("list_tools", steps, listToolsStep.outcome, listToolsStep.ms);
  const mcpArgs = manifest?.mcp_invocation?.args?.length ? manifest.mcp_invocation.args : ["mcp"];
  const mcp = await probeMcp({ driver, args: mcpArgs, timeoutMs, env });
  const initialize = recordStep("mcp_initialize", steps, mcp.initialize, mcp.durations.initialize);
  const toolsList = recordStep("mcp_tools_list", steps, mcp.toolsList, mcp.durations.toolsList);
  for (const s of mcp.modern?.steps ?? []) recordStep(s.step, steps, s.outcome, s.ms);
  const status = recordStep("status", steps, statusStep.outcome, statusStep.ms);
  const socket = socketFromStatus(status);
  const metadata = socket
    ? await runStep("metadata", steps, () => daemonMetadata({ socket, timeoutMs }))
    : recordStep<DriverMetadata>("metadata", steps, { status: "unsupported", message: "no daemon is running to ask (the CLI has no metadata command)" }, 0);

  const version = parseVersion(versionOutput ?? "") ?? manifest?.binary_version ?? initialize?.serverInfo?.version ?? metadata?.driverVersion ?? null;
  const snapshot: ProbeSnapshot = {
    format: PROBE_FORMAT,
    version: PROBE_VERSION,
    probed_at: (options.now?.() ?? new Date()).toISOString(),
    driver: { source: "binary", location: driver, platform: `${process.platform}-${process.arch}`, version },
    steps,
  };
  if (versionOutput !== undefined) snapshot.version_output = versionOutput;
  if (manifest) snapshot.manifest = manifest;
  if (listTools) snapshot.list_tools = listTools;
  if (initialize) snapshot.initialize = initialize;
  if (toolsList) snapshot.tools_list = toolsList;
  if (status) snapshot.status = status;
  if (metadata) snapshot.metadata = metadata;
  if (mcp.modern) addModernEra(snapshot, mcp.modern, initialize !== undefined);
  return snapshot;
}

/** The absolute path of an executable `--driver`: a path, or a name looked up on PATH. */
export async function resolveExecutable(driver: string): Promise<string> {
  const candidates = driver.includes("/")
    ? [path.resolve(driver)]
    : (process.env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.join(d, driver));
  for (const candidate of candidates) {
    const info = await stat(candidate).catch(() => undefined);
    if (!info) continue;
    if (!info.isFile()) {
      throw new UserError(`${candidate} is not a file`, { code: "DRIVER_NOT_FOUND", field: "--driver", fix: "Point --driver at the cua-driver executable." });
    }
    const executable = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (!executable) {
      throw new UserError(`${candidate} is not executable`, {
        code: "DRIVER_NOT_FOUND",
        field: "--driver",
        fix: `Run \`chmod +x ${candidate}\` or point --driver at the cua-driver executable.`,
      });
    }
    return candidate;
  }
  throw new UserError(driver.includes("/") ? `${path.resolve(driver)} does not exist` : `no ${driver} on PATH`, {
    code: "DRIVER_NOT_FOUND",
    field: "--driver",
    fix: "Point --driver at the cua-driver executable, or probe the published runtime with --sdk VERSION.",
  });
}

function tail(stderr: unknown): string {
  const line = String(stderr ?? "")
    .trim()
    .split("\n")
    .at(-1)
    ?.trim();
  return line ? `: ${line.slice(0, 200)}` : "";
}
