import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { UserError } from "#src/errors.js";
import { readRequestBody } from "./mcp-http-front.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";
import { recordHttpExchange } from "./exchange-recording.js";

/** Bodies above this are cut off (cua-driver itself refuses more than 16 MiB). */
const MAX_BODY = 32 * 1024 * 1024;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "content-length", "host"]);

export interface HttpRecordingProxy {
  port: number;
  /** The MCP endpoint harnesses post to: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** What the harness is given: its cua-driver HTTP port is the proxy's. */
  env: { CUA_DRIVER_RS_MCP_HTTP_PORT: string; CUA_CONTRACT_MCP_HTTP_URL: string };
  /** Requests answered with a status other than 200/202 (401, 403, 405, …): forwarded, not recorded. */
  refused(): number;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of `cua-driver serve`'s MCP over HTTP (docs/reference/cua-driver-contract.md §2.6) that records
 * each exchange as one `http` event when it completes. Each harness connection gets its own
 * upstream connection, so the driver sees the same transport sessions (one per TCP connection,
 * requests in order) it would see without the proxy. Headers are forwarded, never recorded.
 */
export async function startHttpRecordingProxy(
  options: RecordingParts & {
    upstream: URL;
    port?: number;
    /** Tokens to keep off disk besides those seen in Authorization headers (e.g. CUA_DRIVER_RS_MCP_HTTP_TOKEN). */
    tokens?: readonly string[];
    onWarning?: (message: string) => void;
  },
): Promise<HttpRecordingProxy> {
  const tokens = new Set((options.tokens ?? []).filter((t) => t.length > 0));
  const agents = new WeakMap<Socket, http.Agent>();
  const live = new Set<http.Agent>();
  let refused = 0;
  let closing: Promise<void> | undefined;
  const agentFor = (socket: Socket): http.Agent => {
    let agent = agents.get(socket);
    if (!agent) {
      const a = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.set(socket, a);
      live.add(a);
      socket.once("close", () => {
        a.destroy();
        live.delete(a);
      });
      agent = a;
    }
    return agent;
  };
  const server = http.createServer((req, res) => {
    const startMs = options.clock();
    const auth = req.headers.authorization;
    if (auth?.startsWith("Bearer ")) tokens.add(auth.slice(7));
    readRequestBody(req, MAX_BODY, (requestBody) => {
      const headers: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
      headers["content-length"] = requestBody.length;
      const up = http.request(
        {
          host: options.upstream.hostname.replace(/^\[|\]$/g, ""),
          port: options.upstream.port || 80,
          method: req.method,
          path: req.url,
          headers,
          agent: agentFor(req.socket),
        },
        (upRes) => {
          const body: Buffer[] = [];
          upRes.on("data", (c: Buffer) => body.push(c));
          upRes.on("error", () => req.socket.destroy());
          upRes.on("end", () => {
            const responseBody = Buffer.concat(body);
            const status = upRes.statusCode ?? 502;
            const close = upRes.headers.connection?.toLowerCase() === "close";
            const out: http.OutgoingHttpHeaders = {};
            for (const [k, v] of Object.entries(upRes.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
            out["content-length"] = responseBody.length;
            if (close) out.connection = "close";
            if (status === 200 || status === 202) {
              const contentType = upRes.headers["content-type"];
              recordHttpExchange({
                ...options,
                tokens,
                exchange: {
                  startMs,
                  durationMs: options.clock() - startMs,
                  method: req.method ?? "POST",
                  path: req.url ?? "/",
                  requestBody,
                  status,
                  ...(contentType !== undefined ? { contentType } : {}),
                  responseBody,
                },
              });
            } else refused++;
            res.writeHead(status, out);
            res.end(responseBody);
            if (close) res.once("finish", () => req.socket.destroy());
          });
        },
      );
      // The driver went away mid-request: the harness sees its connection dropped, as it would.
      up.on("error", (error) => {
        options.onWarning?.(
          `MCP over HTTP: ${req.method} ${req.url} to ${options.upstream.origin} failed (${error.message}); the harness's connection was closed`,
        );
        req.socket.destroy();
      });
      up.end(requestBody);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new UserError(`cannot listen on 127.0.0.1:${options.port ?? 0} for the MCP-over-HTTP recording proxy (${error.code ?? error.message})`, {
          code: "USAGE",
          field: "--http-port",
          fix: "Pick a free port with --http-port N, or leave it out to get a free one.",
        }),
      ),
    );
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    port,
    url,
    env: { CUA_DRIVER_RS_MCP_HTTP_PORT: String(port), CUA_CONTRACT_MCP_HTTP_URL: url },
    refused: () => refused,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (refused > 0) options.onWarning?.(`MCP over HTTP: ${refused} request(s) the driver refused (401, 403, 405, …) were forwarded but not recorded`);
        server.closeAllConnections();
        for (const a of live) a.destroy();
        server.close(() => resolve());
      })),
  };
}
