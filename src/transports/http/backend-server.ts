import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { McpSessionHandler, ShimBackend } from "../../shim-server/backend.js";
import { errorLine } from "../mcp/jsonrpc.js";
import type { McpHttpServer } from "./server.js";

const MAX_BODY = 16 * 1024 * 1024;

/**
 * MCP over HTTP as `cua-driver serve` offers it (CONTRACT.md §2.6), answered live by a backend's
 * `cua-driver mcp` session (e.g. the published runtime): one session per TCP connection, requests
 * in order, notifications 202, token and Origin checked before anything reaches the backend.
 */
export async function startBackendHttpServer(options: { backend: ShimBackend; port: number; token: string; host?: string }): Promise<McpHttpServer> {
  const conns = new WeakMap<Socket, { handler: McpSessionHandler; waiting: Array<(line: string) => void>; chain: Promise<void> }>();
  const connFor = (socket: Socket) => {
    let conn = conns.get(socket);
    if (!conn) {
      const waiting: Array<(line: string) => void> = [];
      const handler = options.backend.mcp(
        { argv: ["mcp"], cwd: process.cwd(), env: process.env as Record<string, string> },
        { send: (line) => waiting.shift()?.(line), stderr: () => {}, exit: () => socket.destroy() },
      );
      conn = { handler, waiting, chain: Promise.resolve() };
      conns.set(socket, conn);
      socket.once("close", () => {
        handler.end();
        handler.gone?.();
      });
    }
    return conn;
  };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: string, close = false) => {
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...(close ? { connection: "close" } : {}) });
      res.end(body);
      if (close) res.once("finish", () => req.socket.destroy());
    };
    if (req.headers.origin !== undefined) return send(403, errorLine(undefined, -32600, "Browser-origin requests are forbidden"));
    const auth = req.headers.authorization ?? "";
    if (!sameToken(auth.startsWith("Bearer ") ? auth.slice(7) : "", options.token)) return send(401, errorLine(undefined, -32001, "Authentication required"), true);
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
      const conn = connFor(req.socket);
      conn.chain = conn.chain.then(async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        if (!expectsReply(body)) {
          conn.handler.line(body);
          res.writeHead(202, { "content-length": 0 });
          return void res.end();
        }
        const reply = new Promise<string>((resolve) => conn.waiting.push(resolve));
        conn.handler.line(body);
        send(200, await reply);
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

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

// What `cua-driver mcp` answers: requests and unparseable lines get a line; notifications and blank lines do not.
function expectsReply(body: string): boolean {
  if (body.trim() === "") return false;
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return true;
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) return true;
  const m = message as { method?: unknown; jsonrpc?: unknown; id?: unknown };
  if (typeof m.method !== "string" || m.jsonrpc === undefined) return true;
  return m.id !== undefined && m.id !== null;
}
