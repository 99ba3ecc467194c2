import type { CliRequest, CliResponse, McpIo, McpSessionHandler, ShimBackend } from "#src/shim-server/backend.js";
import { mountMcpStdio } from "#src/shim-server/mcp-stdio.js";
import { mountCli } from "#src/shim-server/mount.js";
import { mcpFront } from "#src/transports/mcp/front.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { deliverCliAnswer } from "./deliver-cli.js";
import { cliRequest, type ReplayRequest } from "#src/replay/engine/request.js";
import { staticCliAnswer } from "#src/replay/engine/static-answers.js";
import { resolveBinaryPath } from "#src/runtime/binary-path.js";
import type { ReplaySession } from "#src/replay/session.js";
import { perRequestStandIn, type StandIn } from "#src/driver/stand-in.js";

/**
 * The replayer behind the `cua-driver` shim: every invocation is answered from the cassette,
 * never passed to a real driver (there is no code path that could reach one).
 */
export function createReplayBackend(options: { session: ReplaySession }): ShimBackend {
  const { session } = options;
  return {
    // each `cua-driver call` process is a connection of one request
    cli: mountCli(cliFront(session)),
    mcp: (_init, io) => replayMcpSession(session, io),
  };
}

/**
 * Per-call CLI as a replay front: one `cua-driver …` invocation (argv, stdin) in, its stdout, stderr
 * and exit code out, as the binary would give them; a call that hangs answers when the harness kills
 * the process (exit by SIGKILL) or at the driver's own deadline.
 */
export function cliFront(session: ReplaySession): StandIn<CliRequest, CliResponse> {
  return perRequestStandIn("cli", async (request) => ({ type: "answer", answer: await answerCliRequest({ session, request }) }));
}

/** An MCP stdio session answered from the replay session, at its speed. */
export function replayMcpSession(session: ReplaySession, io: McpIo): McpSessionHandler {
  const paced = session.speed === "recorded" ? pacedMcp(session, io) : { session, io };
  return mountMcpStdio(mcpFront(paced.session, "mcp").open(), paced.io);
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
  const fixed = await answerStatic({ session, request: replayRequest, env: request.env, tMs });
  if (fixed) return fixed;
  const decision = session.decide(replayRequest);
  const answer = answerCli({ decision, ...(session.frame ? { frame: session.frame } : {}) });
  const delivered = await deliverCliAnswer({ answer, request, clock: session.clock, pacedMs: session.speedDelayMs(decision) });
  const served = answer.type === "output" && answer.served !== undefined ? { served: answer.served } : {};
  session.record(decision, { tMs, ...served, ...(delivered.exitCode !== undefined ? { exitCode: delivered.exitCode } : {}) });
  return delivered.response;
}

/**
 * The answers the binary gives without a daemon (`--version`, `--help`, `check-update`,
 * `mcp-config`, …), built from the cassette and recorded as synthesized; undefined for a request
 * that needs the recording.
 */
export async function answerStatic(options: {
  session: ReplaySession;
  request: ReplayRequest;
  env: Record<string, string>;
  tMs: number;
}): Promise<CliResponse | undefined> {
  const { session, request, tMs } = options;
  const fixed = staticCliAnswer({
    request,
    exchanges: session.engine.exchanges,
    driver: session.driver,
    ...(request.method === "mcp-config" ? { binaryPath: await resolveBinaryPath(options.env) } : {}),
  });
  if (!fixed) return undefined;
  session.record(session.synthesized(request), { tMs, exitCode: fixed.exitCode, synthesized: fixed.synthesized });
  return { stdout: Buffer.from(fixed.stdout), stderr: Buffer.from(fixed.stderr), exitCode: fixed.exitCode };
}
