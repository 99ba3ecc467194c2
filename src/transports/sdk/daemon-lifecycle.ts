/**
 * `serve`, `status` and `stop` for the SDK backend, with cua-driver 0.21.0's texts and exit codes
 * (docs/reference/cua-driver-contract.md §1.7). The runtime lives in this process for the whole session, so "the daemon"
 * is bookkeeping: a socket is running while a harness's `serve --socket P` is in flight, and the
 * pid reported is this process's, the one hosting the runtime. No socket file is created; what
 * that leaves out is listed in docs/discoveries/sdk-backend.md.
 */
import path from "node:path";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import { DAEMON_NOT_RUNNING, DAEMON_SHUTTING_DOWN, daemonAlreadyRunning, daemonListening, daemonRunningStatus } from "#src/driver/messages.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";

export type LifecycleCommand = "serve" | "status" | "stop";

export const LIFECYCLE_COMMANDS: ReadonlySet<string> = new Set<LifecycleCommand>(["serve", "status", "stop"]);

export interface DaemonLifecycle {
  answer(options: { command: LifecycleCommand; request: CliRequest }): Promise<CliResponse>;
  /** Ends every `serve` still in flight as a shutdown would (the session is over). */
  close(): void;
}

export function createDaemonLifecycle(options: { pid: number }): DaemonLifecycle {
  const served = new Map<string, { shutdown(): void }>();
  return {
    async answer({ command, request }) {
      const socket = socketOf(request);
      const key = path.resolve(request.cwd || "/", socket);
      const daemon = served.get(key);
      switch (command) {
        case "status":
          return daemon ? text({ stdout: daemonRunningStatus(socket, options.pid), exitCode: 0 }) : text({ stderr: `${DAEMON_NOT_RUNNING}\n`, exitCode: 1 });
        case "stop":
          if (!daemon) return text({ stderr: `${DAEMON_NOT_RUNNING}\n`, exitCode: 1 });
          daemon.shutdown();
          return text({ exitCode: 0 });
        case "serve":
          if (daemon) return text({ stderr: daemonAlreadyRunning(socket, options.pid), exitCode: 1 });
          return serve({ served, key, socket, request });
      }
    },
    close() {
      for (const daemon of [...served.values()]) daemon.shutdown();
    },
  };
}

// A serve stays in flight until `stop` names its socket, the session ends, or its shim is killed.
function serve(options: { served: Map<string, { shutdown(): void }>; key: string; socket: string; request: CliRequest }): Promise<CliResponse> {
  const { served, key, socket, request } = options;
  const listening = daemonListening(socket);
  if (request.signal.aborted) return Promise.resolve({ ...text({ stderr: listening, exitCode: null }), signal: "SIGTERM" });
  return new Promise((resolve) => {
    const finish = (response: CliResponse) => {
      served.delete(key);
      request.signal.removeEventListener("abort", killed);
      resolve(response);
    };
    const killed = () => finish({ ...text({ stderr: listening, exitCode: null }), signal: "SIGTERM" });
    request.signal.addEventListener("abort", killed, { once: true });
    served.set(key, { shutdown: () => finish(text({ stderr: `${listening}${DAEMON_SHUTTING_DOWN}`, exitCode: 0 })) });
  });
}

/** `--socket P`, else the Linux default `$HOME/.cache/cua-driver/cua-driver.sock` (`/tmp` without HOME). */
export function socketOf(request: CliRequest): string {
  const given = parseDriverArgv(request.argv).flags.get("--socket");
  if (typeof given === "string" && given) return given;
  return path.join(request.env.HOME || "/tmp", ".cache", "cua-driver", "cua-driver.sock");
}

function text(options: { stdout?: string; stderr?: string; exitCode: number | null }): CliResponse {
  return { stdout: Buffer.from(options.stdout ?? ""), stderr: Buffer.from(options.stderr ?? ""), exitCode: options.exitCode };
}
