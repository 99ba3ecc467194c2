import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { errorLine } from "../mcp/jsonrpc.js";
import { dispatchMcpLine } from "../mcp/dispatch.js";
import type { ReplaySession } from "../../replay/session.js";

const MAX_BODY = 16 * 1024 * 1024;

export interface McpHttpServer {
  port: number;
  url: string;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Whether a token is one `cua-driver serve` accepts: 32-4096 characters, no whitespace or controls. */
export function isValidToken(token: string): boolean {
  return token.length >= 32 && token.length <= 4096 && !/[\s\x00-\x1f\x7f]/.test(token);
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * MCP over HTTP as `cua-driver serve` offers it with CUA_DRIVER_RS_MCP_HTTP_PORT (CONTRACT.md §2.6):
 * loopback only, bearer token, any `Origin` refused, POST only, notifications 202, one transport
 * session per TCP connection with its requests answered in order, the path not checked.
 */
export async function startMcpHttpServer(options: { session: ReplaySession; port: number; token: string; host?: string }): Promise<McpHttpServer> {
  const { session, token } = options;
  const streams = new WeakMap<object, { stream: number; chain: Promise<void> }>();
  const server = http.createServer((req, res) => {
    const socket = req.socket;
    let conn = streams.get(socket);
    if (!conn) {
      conn = { stream: session.openStream("http"), chain: Promise.resolve() };
      streams.set(socket, conn);
      const stream = conn.stream;
      socket.once("close", () => session.closeStream("http", stream));
    }
    const send = (status: number, body: string, close = false) => {
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...(close ? { connection: "close" } : {}) });
      res.end(body);
      if (close) res.once("finish", () => socket.destroy());
    };
    if (req.headers.origin !== undefined) return send(403, errorLine(undefined, -32600, "Browser-origin requests are forbidden"));
    const auth = req.headers.authorization ?? "";
    const given = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    if (!sameToken(given, token)) return send(401, errorLine(undefined, -32001, "Authentication required"), true);
    if (req.method !== "POST") {
      res.writeHead(405, { "content-length": 0 });
      return res.end();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on("end", () => {
      const c = conn!;
      c.chain = c.chain.then(async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const answer = await dispatchMcpLine({ session, line: body, stream: c.stream, transport: "http" });
        if (!answer) {
          res.writeHead(202, { "content-length": 0 });
          res.end();
        } else if (answer.type === "line") send(200, answer.line);
        else if (answer.type === "hang") await new Promise<void>((resolve) => socket.once("close", () => resolve()));
        else socket.destroy();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { port, url: `http://127.0.0.1:${port}/mcp`, close, [Symbol.asyncDispose]: close };
}
