import type { ReplaySession } from "#src/replay/session.js";
import { assertNever } from "#src/util/assert-never.js";
import type { StandIn } from "#src/driver/stand-in.js";
import { dispatchMcpLine, logUnanswered } from "./dispatch.js";
import { connectionEra } from "./era.js";

/**
 * `cua-driver mcp` and MCP over HTTP as a replay front: one JSON-RPC line (stdio) or body (HTTP)
 * in, one out. The driver handles one request at a time, so after a call that never returns the
 * connection answers nothing more; what the harness sends behind it is still logged, as unanswered,
 * so the invariants judge the whole conversation. `queued: false` is for a carrier with no
 * connections, whose requests do not wait for one another (msw): a hang holds up only itself.
 */
export function mcpFront(session: ReplaySession, transport: "mcp" | "http", options: { queued?: boolean } = {}): StandIn<string, string> {
  const queued = options.queued ?? true;
  return {
    transport,
    open() {
      const stream = session.openStream(transport);
      // the driver's era state is per stdio connection, from 0.28; its HTTP endpoint stays legacy-only
      const era = connectionEra(session.driverVersion, transport);
      let stuck = false;
      let closed = false;
      return {
        async send(line) {
          if (stuck) {
            logUnanswered({ session, line, stream, transport });
            return { type: "unanswered" };
          }
          const answer = await dispatchMcpLine({ session, line, stream, transport, ...(era ? { era } : {}) });
          if (!answer) return { type: "none" };
          switch (answer.type) {
            case "line":
              return { type: "answer", answer: answer.line };
            case "hang":
              stuck = queued;
              return { type: "hang" };
            case "exit":
              return { type: "closed", code: answer.code, ...(answer.stderr ? { stderr: answer.stderr } : {}) };
            case "drop":
              return { type: "closed", code: 1 };
            default:
              return assertNever(answer);
          }
        },
        close() {
          if (closed) return;
          closed = true;
          session.closeStream(transport, stream);
        },
      };
    },
  };
}
