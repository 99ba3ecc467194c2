// The front of `cua-driver serve`'s MCP over HTTP (docs/reference/cua-driver-contract.md §2.6) that every server here puts
// before its own answering: the request checks, the JSON reply, the body read and the listening.
import { timingSafeEqual } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { errorLine } from "#src/transports/mcp/wire/envelope.js";

export interface McpHttpServer {
  port: number;
  url: string;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export type JsonSend = (status: number, body: string, close?: boolean) => void;

/** Answers with a JSON body; `close` ends the TCP connection once the answer is out. */
export function jsonSender(req: http.IncomingMessage, res: http.ServerResponse): JsonSend {
  return (status, body, close = false) => {
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...(close ? { connection: "close" } : {}) });
    res.end(body);
    if (close) res.once("finish", () => req.socket.destroy());
  };
}

/**
 * `cua-driver serve`'s checks before any MCP, in its order: any `Origin` 403, a missing or wrong
 * bearer token 401 (connection closed), anything but POST 405. Returns whether it answered.
 */
export function refuseMcpHttpRequest(options: { req: http.IncomingMessage; res: http.ServerResponse; token: string; send: JsonSend }): boolean {
  const { req, res, send } = options;
  if (req.headers.origin !== undefined) {
    send(403, errorLine(undefined, -32600, "Browser-origin requests are forbidden"));
    return true;
  }
  const auth = req.headers.authorization ?? "";
  if (!sameToken(auth.startsWith("Bearer ") ? auth.slice(7) : "", options.token)) {
    send(401, errorLine(undefined, -32001, "Authentication required"), true);
    return true;
  }
  if (req.method !== "POST") {
    res.writeHead(405, { "content-length": 0 });
    res.end();
    return true;
  }
  return false;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Collects a request body; past `maxBytes` the request is destroyed and `onBody` never runs. */
export function readRequestBody(req: http.IncomingMessage, maxBytes: number, onBody: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size > maxBytes) req.destroy();
    else chunks.push(c);
  });
  req.on("end", () => onBody(Buffer.concat(chunks)));
}

/** `cua-driver serve` reads at most 64 KiB of request headers (docs/reference/cua-driver-contract.md §2.6); pass to http.createServer. */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Past MAX_HEADER_BYTES the answer is 431. Node writes one and closes while the client is still
 * sending, and the client then sees a reset instead of the answer: here the rest of the request is
 * read and dropped after the 431 until the client is done, or a second has passed.
 */
function answerOversizedHeaders(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code !== "HPE_HEADER_OVERFLOW" || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = errorLine(undefined, -32600, `Request headers are larger than ${MAX_HEADER_BYTES} bytes`);
  socket.end(
    `HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  socket.on("data", () => undefined);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), 1_000);
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", () => socket.destroy());
}

/** Listens on loopback (or `host`) and returns the endpoint; closing drops every open connection. */
export async function listenMcpHttp(server: http.Server, options: { port: number; host?: string }): Promise<McpHttpServer> {
  server.on("clientError", answerOversizedHeaders);
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
