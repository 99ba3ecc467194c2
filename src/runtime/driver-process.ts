/**
 * The one module that starts the cua-driver binary (decision 0210; the architecture test fails a
 * second one). Every way the toolkit runs an executable driver goes through here: one run with
 * every byte collected (a recorded or forwarded `cua-driver call`, an identity call), one run with
 * a deadline (the probe, the CLI Driver adapter), a piped stream (`cua-driver mcp` forwarded line
 * by line, the probe's MCP session) and the MCP SDK's stdio client transport (the MCP Driver
 * adapter). Who starts it and why stays with the caller; how it is started is said once here.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { StdioClientTransport, StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa, type Options as ExecaOptions, type ResultPromise } from "execa";

/** What a driver run is started with when the caller asks for a quiet one: no telemetry workers, no update check. */
export const QUIET_DRIVER_ENV = { CUA_DRIVER_RS_TELEMETRY_ENABLED: "false", CUA_DRIVER_RS_UPDATE_CHECK: "0" } as const;

export interface DriverRun {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number | null;
  signal?: NodeJS.Signals;
  /** The process could not be started at all (ENOENT, EACCES…). */
  spawnError?: Error;
}

/** Starts the driver with all three streams piped, in `cwd` (this process's when empty), with exactly `env`. */
export function spawnDriver(options: { driver: string; argv: readonly string[]; cwd: string; env: Record<string, string> }): ChildProcessWithoutNullStreams {
  return spawn(options.driver, options.argv, { cwd: options.cwd || process.cwd(), env: options.env, stdio: ["pipe", "pipe", "pipe"] });
}

/** Runs the real driver once, feeding stdin and collecting every byte; aborting kills it. */
export function runDriverOnce(options: {
  driver: string;
  argv: string[];
  stdin: Buffer;
  cwd: string;
  env: Record<string, string>;
  signal?: AbortSignal;
}): Promise<DriverRun> {
  return new Promise((resolve) => {
    const child = spawnDriver(options);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), 2000);
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: null, spawnError: error });
    });
    child.on("close", (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      const run: DriverRun = { stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode: code };
      if (signal) run.signal = signal;
      resolve(run);
    });
  });
}

/** Options of a run with a deadline: what execa takes, minus what would change how the driver is found or read. */
type DeadlineOptions = Pick<ExecaOptions, "env" | "timeout" | "forceKillAfterDelay" | "stripFinalNewline"> & { stdin: "ignore" };

/** One run with a deadline, as execa reports it. */
export interface DeadlineRun {
  /** Undefined when the process did not exit by itself (killed, or never started). */
  exitCode: number | undefined;
  signal: string | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it did not run, when it could not be started. */
  cause: unknown;
}

/** Runs the driver once with stdin closed and a deadline (execa, never rejecting): the probe's steps and the CLI Driver adapter's calls. */
export async function runDriverWithDeadline(driver: string, args: readonly string[], options: DeadlineOptions): Promise<DeadlineRun> {
  const r = await execa(driver, args, { ...options, reject: false });
  return { exitCode: r.exitCode, signal: r.signal, stdout: String(r.stdout), stderr: String(r.stderr), timedOut: Boolean(r.timedOut), cause: r.cause };
}

const streamOptions = (env: NodeJS.ProcessEnv) => ({ env, reject: false, stdin: "pipe", stdout: "pipe", stderr: "pipe", buffer: false }) as const;

/** Starts the driver as a stream read and written by the caller (execa, never rejecting, nothing buffered): the probe's MCP session. */
export function startDriverStream(
  driver: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv },
): ResultPromise<ReturnType<typeof streamOptions>> {
  return execa(driver, args, streamOptions(options.env));
}

/**
 * The MCP SDK's stdio client transport over `cua-driver mcp`: the SDK starts the driver when the client connects.
 * Loaded on first use, so commands that never speak MCP to a driver do not load the SDK.
 */
export async function driverStdioTransport(parameters: StdioServerParameters): Promise<StdioClientTransport> {
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  return new StdioClientTransport(parameters);
}
