import http from "node:http";
import { dispatchMcpLine, logUnanswered } from "../mcp/dispatch.js";
import type { ReplaySession } from "../../replay/session.js";
import { MAX_HEADER_BYTES, jsonSender, listenMcpHttp, readRequestBody, refuseMcpHttpRequest, type McpHttpServer } from "./mcp-http-front.js";

export type { McpHttpServer } from "./mcp-http-front.js";

const MAX_BODY = 16 * 1024 * 1024;

/** Whether a token is one `cua-driver serve` accepts: 32-4096 characters, no whitespace or controls. */
export function isValidToken(token: string): boolean {
  return token.length >= 32 && token.length <= 4096 && !/[\s\x00-\x1f\x7f]/.test(token);
}

/**
 * MCP over HTTP as `cua-driver serve` offers it with CUA_DRIVER_RS_MCP_HTTP_PORT (CONTRACT.md §2.6):
 * loopback only, bearer token, any `Origin` refused, POST only, notifications 202, one transport
 * session per TCP connection with its requests answered in order, the path not checked.
 */
export async function startMcpHttpServer(options: { session: ReplaySession; port: number; token: string; host?: string }): Promise<McpHttpServer> {
  const { session, token } = options;
  const streams = new WeakMap<object, { stream: number; chain: Promise<void>; stuck: boolean }>();
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const socket = req.socket;
    let conn = streams.get(socket);
    if (!conn) {
      conn = { stream: session.openStream("http"), chain: Promise.resolve(), stuck: false };
      streams.set(socket, conn);
      const stream = conn.stream;
      socket.once("close", () => session.closeStream("http", stream));
    }
    const send = jsonSender(req, res);
    if (refuseMcpHttpRequest({ req, res, token, send })) return;
    readRequestBody(req, MAX_BODY, (requestBody) => {
      const c = conn!;
      const body = requestBody.toString("utf8");
      // requests behind a call that never returned are read but never run (FIFO per connection)
      if (c.stuck) return logUnanswered({ session, line: body, stream: c.stream, transport: "http" });
      c.chain = c.chain.then(async () => {
        if (c.stuck) return logUnanswered({ session, line: body, stream: c.stream, transport: "http" });
        const answer = await dispatchMcpLine({ session, line: body, stream: c.stream, transport: "http" });
        if (!answer) {
          res.writeHead(202, { "content-length": 0 });
          res.end();
        } else if (answer.type === "line") send(200, answer.line);
        else if (answer.type === "hang") {
          c.stuck = true;
          await new Promise<void>((resolve) => socket.once("close", () => resolve()));
        } else socket.destroy();
      });
    });
  });
  return await listenMcpHttp(server, options);
}
