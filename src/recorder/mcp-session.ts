import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { faultStreamEnder, openMcpStreamRecording } from "./mcp-stream-recording.js";
import { createMcpRelay } from "./mcp-relay.js";
import type { RecordingParts } from "./recording-parts.js";
import { createLineFramer } from "#src/wire/mcp/lines.js";
import { spawnDriver } from "#src/runtime/driver-process.js";

/**
 * Proxies one `cua-driver mcp` session line by line to the real driver and records every line in
 * both directions exactly as sent, plus stderr and the exit. Closing either side closes the other.
 */
export function recordMcpSession(
  options: RecordingParts & {
    driver: string;
    init: { argv: string[]; cwd: string; env: Record<string, string> };
    io: McpIo;
    stream: number;
  },
): McpSessionHandler & { closed: Promise<void>; stop(): Promise<void> } {
  const { io } = options;
  const recording = openMcpStreamRecording({ ...options, argv: options.init.argv });
  const child = spawnDriver({ driver: options.driver, ...options.init });
  let spawnFailed = false;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  child.on("error", (error) => {
    spawnFailed = true;
    markClosed();
    io.stderr(`cua-contract record: cannot run the driver ${options.driver}: ${error.message}\n`);
    recording.close(127);
    io.exit(127);
  });
  child.stdin.on("error", () => {});
  // the stream ended by an injected fault (a death, or stdin EOF on a hung call): the driver is stopped, its own end not reported
  const fault = faultStreamEnder({ recording, io, stop: () => void stop() });
  const endStream = fault.end;
  const relay = createMcpRelay({
    recording,
    stream: options.stream,
    toHarness: (line) => io.send(line),
    toDriver: (line) => {
      if (child.stdin.writable) child.stdin.write(`${line}\n`);
    },
    die: endStream,
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const fromDriver = (line: string) => relay.fromDriver(line);
  const lines = createLineFramer(fromDriver);
  child.stdout.on("data", (chunk: Buffer) => lines.push(chunk));
  child.stdout.on("end", () => lines.end());
  child.stderr.on("data", (chunk: Buffer) => {
    if (fault.ended) return;
    recording.stderr(chunk);
    io.stderr(chunk);
  });
  child.on("close", (code, signal) => {
    if (spawnFailed || fault.ended) {
      markClosed();
      return;
    }
    recording.close(code, signal ?? undefined);
    io.exit(code, signal ?? undefined);
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
    line(line) {
      relay.fromHarness(line);
    },
    end() {
      if (relay.stuck()) endStream(0);
      else child.stdin.end();
    },
    gone() {
      void stop();
    },
  };
}
