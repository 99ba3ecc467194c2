import type { StandInConnection } from "#src/driver/stand-in.js";
import type { McpIo, McpSessionHandler } from "./backend.js";

/**
 * One `cua-driver mcp` process carried over the shim's stdio, answered by a stand-in's connection:
 * lines go to it strictly one at a time in order, like the driver's own loop, so a hung call leaves
 * every later request unanswered (the stand-in still sees them). stdin EOF ends the process once
 * the requests before it are answered; a stuck call ends it too. `stopWhenGone`: once the shim
 * process is gone nothing more is asked or answered (a live driver's session); without it the
 * lines already read are still answered, so a replay logs everything the harness sent.
 */
export function mountMcpStdio(connection: StandInConnection<string, string>, io: McpIo, options: { stopWhenGone?: boolean } = {}): McpSessionHandler {
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
        if (closed) break;
        if (reply.type === "answer") io.send(reply.answer, reply.provenance);
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
    ...(options.stopWhenGone
      ? {
          gone() {
            if (closed) return;
            closed = true;
            connection.close();
          },
        }
      : {}),
  };
}
