import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseDriverArgv } from "../cassette/driver-argv.js";
import type { Redactor } from "../cassette/redact.js";
import type { CliResponse, ShimBackend } from "../shim-server/backend.js";
import { buildCliEvent } from "./cli-event.js";
import { recordMcpSession } from "./mcp-session.js";
import type { RecordingSink } from "./recording-sink.js";
import { runDriverOnce } from "./run-driver.js";

/** Flags whose value is a file the driver writes; the file is stored as a frame. */
const OUT_FILE_FLAGS = ["--screenshot-out-file"] as const;

/** Milliseconds since the recording started (the `t_ms` of events). */
export type RecordingClock = () => number;

export function startClock(): RecordingClock {
  const t0 = performance.now();
  return () => performance.now() - t0;
}

/**
 * The recorder backend for a real `cua-driver` binary: every shim invocation is forwarded to the
 * driver unchanged, the driver's bytes go back to the harness unchanged, and the call is recorded.
 */
export function createDriverRecorderBackend(options: {
  driver: string;
  sink: RecordingSink;
  redactor: Redactor;
  clock: RecordingClock;
}): ShimBackend {
  let streams = 0;
  const sessions = new Set<{ stop(): Promise<void> }>();
  return {
    async cli(request): Promise<CliResponse> {
      const started = options.clock();
      const outFiles = outFilesOf(request.argv, request.cwd);
      const run = await runDriverOnce({
        driver: options.driver,
        argv: request.argv,
        stdin: request.stdin,
        cwd: request.cwd,
        env: request.env,
        signal: request.signal,
      });
      if (run.spawnError) {
        return {
          stdout: Buffer.alloc(0),
          stderr: Buffer.from(`cua-contract record: cannot run the driver ${options.driver}: ${run.spawnError.message}\n`),
          exitCode: 127,
        };
      }
      const duration = options.clock() - started;
      const files: Record<string, { bytes: Buffer; path: string }> = {};
      for (const f of outFiles) {
        const bytes = readIfWritten(f.absolute, f.before);
        if (bytes) files[f.flag] = { bytes, path: f.given };
      }
      const event = buildCliEvent({
        call: {
          argv: request.argv,
          stdin: request.stdin,
          stdout: run.stdout,
          stderr: run.stderr,
          exitCode: run.exitCode,
          ...(run.signal ? { signal: run.signal } : {}),
          t_ms: started,
          duration_ms: duration,
          files,
        },
        redactor: options.redactor,
        putFrame: options.sink.putFrame,
      });
      options.sink.append(event);
      const response: CliResponse = { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode };
      if (run.signal) response.signal = run.signal;
      return response;
    },
    mcp(init, io) {
      const session = recordMcpSession({ ...options, init, io, stream: streams++ });
      sessions.add(session);
      void session.closed.then(() => sessions.delete(session));
      return session;
    },
    // MCP drivers still running when the harness is gone are stopped, and their close recorded.
    async close() {
      await Promise.all([...sessions].map((s) => s.stop()));
    },
  };
}

function outFilesOf(argv: string[], cwd: string) {
  const parsed = parseDriverArgv(argv);
  const out: Array<{ flag: string; given: string; absolute: string; before: string | undefined }> = [];
  for (const flag of OUT_FILE_FLAGS) {
    const value = parsed.flags.get(flag);
    if (typeof value === "string" && value) {
      const absolute = path.resolve(cwd || ".", value);
      out.push({ flag, given: value, absolute, before: fileStamp(absolute) });
    }
  }
  return out;
}

// Only a file the driver (re)wrote during this call counts; a stale file from before is not its output.
function fileStamp(file: string): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    return st.isFile() ? `${st.mtimeNs}:${st.ctimeNs}:${st.size}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function readIfWritten(file: string, before: string | undefined): Buffer | undefined {
  const after = fileStamp(file);
  if (after === undefined || after === before) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
