import type { CliRequest, CliResponse, ShimBackend } from "../shim-server/backend.js";
import { createMcpStdioSession } from "../transports/mcp/stdio-session.js";
import { answerCli } from "./engine/answer-cli.js";
import { deliverCliAnswer } from "./deliver-cli.js";
import { cliRequest } from "./engine/request.js";
import { staticCliAnswer } from "./engine/static-answers.js";
import { resolveBinaryPath } from "../transports/sdk/binary-path.js";
import type { ReplaySession } from "./session.js";

/**
 * The replayer behind the `cua-driver` shim: every invocation is answered from the cassette,
 * never passed to a real driver (there is no code path that could reach one).
 */
export function createReplayBackend(options: { session: ReplaySession }): ShimBackend {
  const { session } = options;
  return {
    cli: (request) => answerCliRequest({ session, request }),
    mcp: (_init, io) => createMcpStdioSession({ session, io }),
  };
}

async function answerCliRequest(options: { session: ReplaySession; request: CliRequest }): Promise<CliResponse> {
  const { session, request } = options;
  const replayRequest = cliRequest({ argv: request.argv, stdin: request.stdin.toString("utf8"), env: request.env });
  const tMs = session.t();
  const fixed = staticCliAnswer({
    request: replayRequest,
    exchanges: session.engine.exchanges,
    driver: session.driver,
    ...(replayRequest.method === "mcp-config" ? { binaryPath: await resolveBinaryPath(request.env) } : {}),
  });
  if (fixed) {
    session.record(session.synthesized(replayRequest), { tMs, exitCode: fixed.exitCode, synthesized: fixed.synthesized });
    return { stdout: Buffer.from(fixed.stdout), stderr: Buffer.from(fixed.stderr), exitCode: fixed.exitCode };
  }
  const decision = session.decide(replayRequest);
  const answer = answerCli({ decision, ...(session.frame ? { frame: session.frame } : {}) });
  const delivered = await deliverCliAnswer({ answer, request, clock: session.clock });
  const served = answer.type === "output" && answer.served !== undefined ? { served: answer.served } : {};
  session.record(decision, { tMs, ...served, ...(delivered.exitCode !== undefined ? { exitCode: delivered.exitCode } : {}) });
  return delivered.response;
}
