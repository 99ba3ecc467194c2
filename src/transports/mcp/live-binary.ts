import { spawnDriver } from "#src/runtime/driver-process.js";
import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { createLineFramer } from "#src/transports/mcp/wire/lines.js";

/** A live `cua-driver mcp` stream: the handler, and its process's end. */
export interface LiveMcpStream extends McpSessionHandler {
  /** Settles when the driver's process has closed (or could not start). */
  readonly closed: Promise<void>;
  /** Stops the driver if it still runs (SIGTERM, SIGKILL 2 s later); settles when it has closed. */
  stop(): Promise<void>;
}

/**
 * `cua-driver mcp` of an executable driver, line by line: every line the harness writes goes to
 * the driver's stdin, and what the driver writes comes back unchanged (its stdout line by line,
 * its stderr, its exit). A driver that cannot be started is reported by `cannotRun` (default: `who`
 * says so on stderr and the stream exits 127).
 */
export function binaryMcpStream(options: {
  file: string;
  who: string;
  init: { argv: string[]; cwd: string; env: Record<string, string> };
  io: McpIo;
  cannotRun?: (error: Error) => void;
}): LiveMcpStream {
  const { io } = options;
  const child = spawnDriver({ driver: options.file, ...options.init });
  let spawnFailed = false;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  child.on("error", (error) => {
    spawnFailed = true;
    markClosed();
    if (options.cannotRun) return options.cannotRun(error);
    io.stderr(`${options.who}: cannot run the driver ${options.file}: ${error.message}\n`);
    io.exit(127);
  });
  child.stdin.on("error", () => {});
  const lines = createLineFramer((line) => io.send(line));
  child.stdout.on("data", (chunk: Buffer) => lines.push(chunk));
  child.stdout.on("end", () => lines.end());
  child.stderr.on("data", (chunk: Buffer) => io.stderr(chunk));
  child.on("close", (code, signal) => {
    if (!spawnFailed) io.exit(code, signal ?? undefined);
    markClosed();
  });
  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null && !spawnFailed) {
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), 2000);
      killTimer.unref();
    }
    return closed;
  };
  return {
    closed,
    stop,
    line: (line) => {
      if (child.stdin.writable) child.stdin.write(`${line}\n`);
    },
    end: () => child.stdin.end(),
    gone: () => void stop(),
  };
}
