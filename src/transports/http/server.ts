import http from "node:http";
import { mcpFront } from "#src/transports/mcp/front.js";
import type { StandInConnection } from "#src/driver/stand-in.js";
import type { ReplaySession } from "#src/replay/session.js";
import { MAX_HEADER_BYTES, jsonSender, listenMcpHttp, readRequestBody, refuseMcpHttpRequest, type McpHttpServer } from "./mcp-http-front.js";

export type { McpHttpServer } from "./mcp-http-front.js";

const MAX_BODY = 16 * 1024 * 1024;

/** Whether a token is one `cua-driver serve` accepts: 32-4096 characters, no whitespace or controls. */
export function isValidToken(token: string): boolean {
  return token.length >= 32 && token.length <= 4096 && !/[\s\x00-\x1f\x7f]/.test(token);
}

/**
 * MCP over HTTP as `cua-driver serve` offers it with CUA_DRIVER_RS_MCP_HTTP_PORT (docs/reference/cua-driver-contract.md §2.6):
 * loopback only, bearer token, any `Origin` refused, POST only, notifications 202, one transport
 * session per TCP connection with its requests answered in order, the path not checked.
 */
export async function startMcpHttpServer(options: { session: ReplaySession; port: number; token: string; host?: string }): Promise<McpHttpServer> {
  const { token } = options;
  const front = mcpFront(options.session, "http");
  const connections = new WeakMap<object, { connection: StandInConnection<string, string>; chain: Promise<void>; stuck: boolean }>();
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const socket = req.socket;
    let conn = connections.get(socket);
    if (!conn) {
      const connection = front.open();
      conn = { connection, chain: Promise.resolve(), stuck: false };
      connections.set(socket, conn);
      socket.once("close", () => connection.close());
    }
    const send = jsonSender(req, res);
    if (refuseMcpHttpRequest({ req, res, token, send })) return;
    readRequestBody(req, MAX_BODY, (requestBody) => {
      const c = conn!;
      const body = requestBody.toString("utf8");
      // requests behind a call that never returned are read but never run (FIFO per connection): the front logs them
      if (c.stuck) return void c.connection.send(body);
      c.chain = c.chain.then(async () => {
        const reply = await c.connection.send(body);
        if (reply.type === "none") {
          res.writeHead(202, { "content-length": 0 });
          res.end();
        } else if (reply.type === "answer") send(200, reply.answer);
        else if (reply.type === "hang") {
          c.stuck = true;
          await new Promise<void>((resolve) => socket.once("close", () => resolve()));
        } else if (reply.type === "closed") socket.destroy();
        // "unanswered": behind a hung request, no response ever
      });
    });
  });
  return await listenMcpHttp(server, options);
}
