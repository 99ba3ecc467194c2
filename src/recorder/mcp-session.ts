import { spawn } from "node:child_process";
import type { Redactor } from "../cassette/redact.js";
import { storeText } from "../cassette/store-text.js";
import type { McpIo, McpSessionHandler } from "../shim-server/backend.js";
import type { RecordingClock } from "./driver-backend.js";
import type { RecordingSink } from "./recording-sink.js";

/**
 * Proxies one `cua-driver mcp` session line by line to the real driver and records every line in
 * both directions exactly as sent, plus stderr and the exit. Closing either side closes the other.
 */
export function recordMcpSession(options: {
  driver: string;
  sink: RecordingSink;
  redactor: Redactor;
  clock: RecordingClock;
  init: { argv: string[]; cwd: string; env: Record<string, string> };
  io: McpIo;
  stream: number;
}): McpSessionHandler & { closed: Promise<void>; stop(): Promise<void> } {
  const { sink, redactor, clock, io, stream } = options;
  const toolById = new Map<string, string>();
  sink.append({ kind: "mcp_open", t_ms: ms(clock()), stream, argv: options.init.argv.map((a) => redactor.text(a)), origin: "harness" });
  const child = spawn(options.driver, options.init.argv, {
    cwd: options.init.cwd || process.cwd(),
    env: options.init.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let spawnFailed = false;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  child.on("error", (error) => {
    spawnFailed = true;
    markClosed();
    io.stderr(`cua-contract record: cannot run the driver ${options.driver}: ${error.message}\n`);
    sink.append({ kind: "mcp_close", t_ms: ms(clock()), stream, exit_code: 127, origin: "harness" });
    io.exit(127);
  });
  child.stdin.on("error", () => {});
  const recordLine = (dir: "c2s" | "s2c", line: string) => {
    learn(dir, line);
    const s = storeText({ bytes: line, field: "line", redactor, putFrame: sink.putFrame });
    sink.append({ kind: "mcp", t_ms: ms(clock()), stream, dir, line: s.stored, ...(s.splices.length ? { frames: s.splices } : {}), origin: "harness" });
  };
  const learn = (dir: "c2s" | "s2c", line: string) => {
    if (!redactor.enabled) return;
    const msg = parse(line);
    if (!msg || typeof msg !== "object") return;
    const m = msg as { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown }; result?: { structuredContent?: unknown } };
    const id = JSON.stringify(m.id ?? null);
    if (dir === "c2s" && m.method === "tools/call" && typeof m.params?.name === "string") {
      toolById.set(id, m.params.name);
      redactor.learnFromCall(m.params.name, m.params.arguments);
    } else if (dir === "s2c" && m.result) {
      redactor.learnFromResult(toolById.get(id), m.result.structuredContent);
    }
  };
  let partial: Buffer = Buffer.alloc(0);
  child.stdout.on("data", (chunk: Buffer) => {
    partial = partial.length ? Buffer.concat([partial, chunk]) : chunk;
    let nl: number;
    while ((nl = partial.indexOf(0x0a)) >= 0) {
      const line = partial.subarray(0, nl).toString("utf8");
      partial = partial.subarray(nl + 1);
      recordLine("s2c", line);
      io.send(line);
    }
  });
  child.stdout.on("end", () => {
    if (partial.length > 0) {
      const line = partial.toString("utf8");
      partial = Buffer.alloc(0);
      recordLine("s2c", line);
      io.send(line);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    const s = storeText({ bytes: chunk, field: "data", redactor, putFrame: sink.putFrame });
    sink.append({ kind: "mcp_stderr", t_ms: ms(clock()), stream, data: s.stored, origin: "harness" });
    io.stderr(chunk);
  });
  child.on("close", (code, signal) => {
    if (spawnFailed) return;
    sink.append({ kind: "mcp_close", t_ms: ms(clock()), stream, exit_code: code, ...(signal ? { signal } : {}), origin: "harness" });
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
      recordLine("c2s", line);
      if (child.stdin.writable) child.stdin.write(`${line}\n`);
    },
    end() {
      child.stdin.end();
    },
    gone() {
      void stop();
    },
  };
}

const ms = (t: number) => Math.max(0, Math.round(t * 1000) / 1000);

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
