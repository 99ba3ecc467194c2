import type { Driver, Reply, ToolInfo } from "#src/driver/port.js";
import { parseCallFailure, parseCallStdout, parseListTools } from "#src/transports/cli/wire/stdout.js";
import { QUIET_DRIVER_ENV, runDriverWithDeadline } from "#src/runtime/driver-process.js";

/** How the per-call CLI adapter runs `cua-driver call`: the binary, socket and environment. */
export interface CliDriverOptions {
  /** The cua-driver executable (default `cua-driver` from PATH). */
  command?: string;
  /** `--socket` for every call. */
  socket?: string;
  /** Extra environment; telemetry and the update check are turned off unless set here. */
  env?: Record<string, string>;
  /** Deadline per call when the caller gives none (default 30 s). */
  timeoutMs?: number;
}

/**
 * The per-call CLI transport: one `cua-driver call <tool> <json>` process per call. Refusals exit
 * 0, so the reply is read from stdout; only transport trouble exits non-zero.
 */
export function createCliDriver(options: CliDriverOptions = {}): Driver {
  const command = options.command ?? "cua-driver";
  const env = { ...QUIET_DRIVER_ENV, ...options.env };
  const socket = options.socket ? ["--socket", options.socket] : [];

  return {
    async call(tool, args, callOptions = {}): Promise<Reply> {
      const timeout = callOptions.timeoutMs ?? options.timeoutMs ?? 30_000;
      const r = await runDriverWithDeadline(command, ["call", tool, JSON.stringify(args), ...socket], {
        env,
        timeout,
        stdin: "ignore",
        stripFinalNewline: false,
      });
      if (r.timedOut) return { kind: "timeout", tool, message: `cua-driver call ${tool} did not answer within ${timeout} ms` };
      if (r.exitCode === undefined) {
        const why = r.cause instanceof Error ? r.cause.message : r.signal ? `killed by ${r.signal}` : "did not run";
        return { kind: "transport_error", tool, message: `${command} call ${tool}: ${why}` };
      }
      if (r.exitCode !== 0) return parseCallFailure(tool, r.exitCode, String(r.stderr));
      return parseCallStdout(tool, String(r.stdout));
    },
    async listTools(): Promise<ToolInfo[]> {
      const r = await runDriverWithDeadline(command, ["list-tools"], { env, timeout: options.timeoutMs ?? 30_000, stdin: "ignore" });
      if (r.exitCode !== 0) throw new Error(`${command} list-tools failed (exit ${r.exitCode ?? r.signal}): ${String(r.stderr).trim()}`);
      return parseListTools(String(r.stdout));
    },
  };
}
