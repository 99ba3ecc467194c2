import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CliRequest, CliResponse, McpIo, ShimBackend } from "../shim-server/backend.js";
import { fromStoredBytes } from "../cassette/stored-bytes.js";
import { createMcpStdioSession } from "../transports/mcp/stdio-session.js";
import { answerCli } from "./engine/answer-cli.js";
import { cliRequest } from "./engine/request.js";
import { staticCliAnswer } from "./engine/static-answers.js";
import type { ReplaySession } from "./session.js";

/**
 * The replayer behind the `cua-driver` shim: every invocation is answered from the cassette,
 * never passed to a real driver (there is no code path that could reach one).
 */
export function createReplayBackend(options: { session: ReplaySession }): ShimBackend {
  const { session } = options;
  return {
    cli: (request) => answerCliRequest({ session, request }),
    mcp: (_init, io) => {
      return createMcpStdioSession(session.speed === "recorded" ? pacedMcp(session, io) : { session, io });
    },
  };
}

/**
 * `--speed recorded` for `cua-driver mcp`: each answer line goes out after the recorded duration
 * of the request it answers. The MCP dispatcher waits only for `delay` faults, so the wait is put
 * between the session (which sees every answered decision) and the harness's stdout, with every
 * later write (stderr, exit) kept behind it in order.
 */
function pacedMcp(session: ReplaySession, io: McpIo): { session: ReplaySession; io: McpIo } {
  let pending = 0;
  let chain: Promise<void> = Promise.resolve();
  const later = (fn: () => void, waitMs = 0) => {
    chain = chain.then(async () => {
      if (waitMs > 0) await session.clock.sleep(waitMs);
      fn();
    });
  };
  const paced: ReplaySession = Object.create(session, {
    record: {
      value: (decision: Parameters<ReplaySession["record"]>[0], extra: Parameters<ReplaySession["record"]>[1]) => {
        pending = session.speedDelayMs(decision);
        return session.record(decision, extra);
      },
    },
  });
  return {
    session: paced,
    io: {
      send: (line) => {
        const wait = pending;
        pending = 0;
        later(() => io.send(line), wait);
      },
      stderr: (data) => later(() => io.stderr(data)),
      exit: (code, signal) => later(() => io.exit(code, signal)),
    },
  };
}

async function answerCliRequest(options: { session: ReplaySession; request: CliRequest }): Promise<CliResponse> {
  const { session, request } = options;
  const replayRequest = cliRequest({ argv: request.argv, stdin: request.stdin.toString("utf8"), env: request.env });
  const tMs = session.t();
  const fixed = staticCliAnswer({
    request: replayRequest,
    exchanges: session.engine.exchanges,
    ...(session.versionOutput !== undefined ? { versionOutput: session.versionOutput } : {}),
  });
  if (fixed) {
    session.record(session.synthesized(replayRequest), { tMs, exitCode: fixed.exitCode });
    return { stdout: Buffer.from(fixed.stdout), stderr: Buffer.from(fixed.stderr), exitCode: fixed.exitCode };
  }
  const decision = session.decide(replayRequest);
  const answer = answerCli({ decision, ...(session.frame ? { frame: session.frame } : {}) });
  if (answer.type === "hang") {
    await session.clock.sleep(answer.afterMs, request.signal);
    session.record(decision, { tMs, ...(request.signal.aborted ? {} : { exitCode: answer.then.exitCode }) });
    if (request.signal.aborted) return { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: null, signal: "SIGKILL" };
    return { stdout: fromStoredBytes(answer.then.stdout), stderr: fromStoredBytes(answer.then.stderr), exitCode: answer.then.exitCode };
  }
  const wait = answer.delayMs + session.speedDelayMs(decision);
  if (wait > 0) await session.clock.sleep(wait, request.signal);
  let stderr = fromStoredBytes(answer.stderr);
  for (const file of answer.files) {
    const target = path.resolve(request.cwd || process.cwd(), file.path);
    try {
      await writeFile(target, Buffer.from(file.base64, "base64"));
    } catch (error) {
      // the driver reports a failed out-file write on stderr and keeps exit 0 (CONTRACT.md §0.3)
      stderr = Buffer.concat([stderr, Buffer.from(`failed to write screenshot to ${file.path}: ${(error as Error).message}\n`)]);
    }
  }
  session.record(decision, { tMs, ...(answer.served !== undefined ? { served: answer.served } : {}), exitCode: answer.exitCode });
  return {
    stdout: fromStoredBytes(answer.stdout),
    stderr,
    exitCode: answer.exitCode,
    ...(answer.signal !== undefined ? { signal: answer.signal as NodeJS.Signals } : {}),
  };
}
