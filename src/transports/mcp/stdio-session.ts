import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import type { ReplaySession } from "#src/replay/session.js";
import { mcpFront } from "./front.js";

/**
 * One `cua-driver mcp` process answered from a cassette: lines go to the MCP front strictly one at
 * a time in order, like the driver's own loop, so a hung call leaves every later request
 * unanswered (the front still logs them). stdin EOF ends the process once the requests before it
 * are answered; a stuck call ends it too.
 */
export function createMcpStdioSession(options: { session: ReplaySession; io: McpIo; transport?: "mcp" }): McpSessionHandler {
  const { io } = options;
  const connection = mcpFront(options.session, "mcp").open();
  const queue: string[] = [];
  let busy = false;
  let stuck = false;
  let ended = false;
  let closed = false;

  const close = (code: number | null) => {
    if (closed) return;
    closed = true;
    connection.close();
    io.exit(code);
  };

  const pump = async () => {
    if (busy || closed) return;
    busy = true;
    try {
      while (queue.length > 0 && !closed) {
        const reply = await connection.send(queue.shift()!);
        if (reply.type === "answer") io.send(reply.answer);
        else if (reply.type === "hang") stuck = true;
        else if (reply.type === "closed") {
          if (reply.stderr) io.stderr(reply.stderr);
          close(reply.code);
        }
      }
    } finally {
      busy = false;
    }
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
