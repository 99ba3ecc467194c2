import http from "node:http";
import type { Socket } from "node:net";
import type { McpSessionHandler, ShimBackend } from "#src/shim-server/backend.js";
import { MAX_HEADER_BYTES, jsonSender, listenMcpHttp, readRequestBody, refuseMcpHttpRequest, type McpHttpServer } from "./mcp-http-front.js";

const MAX_BODY = 16 * 1024 * 1024;

/**
 * MCP over HTTP as `cua-driver serve` offers it (docs/reference/cua-driver-contract.md §2.6), answered live by a backend's
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
        { argv: ["mcp"], cwd: process.cwd(), env: process.env as Record<string, string>, transport: "http" },
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
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const send = jsonSender(req, res);
    if (refuseMcpHttpRequest({ req, res, token: options.token, send })) return;
    readRequestBody(req, MAX_BODY, (requestBody) => {
      const conn = connFor(req.socket);
      conn.chain = conn.chain.then(async () => {
        const body = requestBody.toString("utf8");
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
  return await listenMcpHttp(server, options);
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
