import type { McpIo, McpSessionHandler } from "../../shim-server/backend.js";
import type { ReplaySession } from "../../replay/session.js";
import { dispatchMcpLine, logUnanswered } from "./dispatch.js";

/**
 * One `cua-driver mcp` process answered from a cassette: lines are handled strictly one at a time
 * in order, like the driver's own loop, so a hung call leaves every later request unanswered. Those
 * requests are still read and logged (as unanswered), so the invariants judge the whole conversation.
 */
export function createMcpStdioSession(options: { session: ReplaySession; io: McpIo; transport?: "mcp" }): McpSessionHandler {
  const { session, io } = options;
  const stream = session.openStream("mcp");
  const queue: string[] = [];
  let busy = false;
  let stuck = false;
  let ended = false;
  let closed = false;

  const close = (code: number | null) => {
    if (closed) return;
    closed = true;
    session.closeStream("mcp", stream);
    io.exit(code);
  };

  const pump = async () => {
    if (stuck && !closed) {
      for (const later of queue.splice(0)) logUnanswered({ session, line: later, stream, transport: "mcp" });
      if (ended) close(0);
      return;
    }
    if (busy || closed) return;
    busy = true;
    try {
      while (queue.length > 0 && !stuck && !closed) {
        const line = queue.shift()!;
        const answer = await dispatchMcpLine({ session, line, stream, transport: "mcp" });
        if (!answer) continue;
        if (answer.type === "line") io.send(answer.line);
        else if (answer.type === "hang") stuck = true;
        else if (answer.type === "exit" || answer.type === "drop") {
          if (answer.type === "exit" && answer.stderr) io.stderr(answer.stderr);
          close(answer.type === "exit" ? answer.code : 1);
        }
      }
    } finally {
      busy = false;
    }
    for (const later of stuck ? queue.splice(0) : []) logUnanswered({ session, line: later, stream, transport: "mcp" });
    // stdin EOF ends the server once the requests before it are answered (a stuck call ends it too)
    if (ended && (queue.length === 0 || stuck)) close(0);
  };

  return {
    line(line) {
      if (closed) return;
      queue.push(line);
      void pump();
    },
    end() {
      ended = true;
      void pump();
    },
  };
}
