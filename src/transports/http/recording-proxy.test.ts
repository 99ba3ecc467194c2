import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import { startClock } from "#src/transports/recording/recording-parts.js";
import { createRecordingSink } from "#src/cassette/recording-sink.js";
import { SYNTHETIC_HEADER } from "../../../test/helpers/synthetic-sink.js";
import { startHttpRecordingProxy } from "./recording-proxy.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOKEN = "proxy-test-token-0123456789abcdefghijklmnop";
const header = SYNTHETIC_HEADER;

/**
 * A test double of `cua-driver serve`'s MCP over HTTP (0.21.0, docs/reference/cua-driver-contract.md §2.6): 401 and close
 * without the token, 403 on Origin, 202 for notifications; it echoes which TCP connection asked.
 */
async function fakeUpstream() {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const json = (status: number, body: string, close = false) => {
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...(close ? { connection: "close" } : {}) });
        res.end(body);
      };
      if (req.headers.origin !== undefined)
        return json(403, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Browser-origin requests are forbidden"}}');
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return json(401, '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Authentication required"}}', true);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: number };
      if (body.id === undefined) {
        res.writeHead(202, { "content-length": 0 });
        return res.end();
      }
      json(200, `{"jsonrpc":"2.0","id":${body.id},"result":{"conn":${req.socket.remotePort},"pi":1.0}}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

async function proxyTo(upstream: URL) {
  const root = mkdtempSync(path.join(os.tmpdir(), "http-proxy-"));
  const dir = path.join(root, "rec");
  const sink = createRecordingSink({ dir, header });
  const warnings: string[] = [];
  const proxy = await startHttpRecordingProxy({
    sink,
    redactor: createRedactor({ enabled: true }),
    clock: startClock(),
    upstream,
    onWarning: (w) => warnings.push(w),
  });
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  cleanups.push(async () => {
    await proxy.close();
    sink.close();
  });
  const lines = () =>
    readFileSync(path.join(dir, "cassette.jsonl"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { kind: string; request: { path: string }; response: { status: number } });
  return { proxy, sink, warnings, lines };
}

/** One keep-alive connection: requests go out one at a time on the same socket. */
function connection(url: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  cleanups.push(() => agent.destroy());
  return (body: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        url,
        { method: "POST", agent, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
}

describe("MCP-over-HTTP recording proxy", () => {
  it("keeps one upstream connection per harness connection and writes each exchange before answering", async () => {
    const { proxy, lines } = await proxyTo(await fakeUpstream());
    expect(proxy.env).toEqual({ CUA_DRIVER_RS_MCP_HTTP_PORT: String(proxy.port), CUA_CONTRACT_MCP_HTTP_URL: `http://127.0.0.1:${proxy.port}/mcp` });
    const a = connection(proxy.url);
    const b = connection(proxy.url);
    const a1 = await a('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expect(lines()).toHaveLength(1); // on disk as soon as the harness has its answer
    const a2 = await a('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    const b1 = await b('{"jsonrpc":"2.0","id":3,"method":"tools/list"}');
    const conn = (r: { body: string }) => (JSON.parse(r.body) as { result: { conn: number } }).result.conn;
    expect(conn(a1)).toBe(conn(a2));
    expect(conn(b1)).not.toBe(conn(a1));
    expect(a1.body).toContain('"pi":1.0'); // bytes as sent, never re-serialised
    const notified = await b('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect([notified.status, notified.body]).toEqual([202, ""]);
    const events = lines();
    expect(events.map((e) => [e.kind, e.request.path, e.response.status])).toEqual([
      ["http", "/mcp", 200],
      ["http", "/mcp", 200],
      ["http", "/mcp", 200],
      ["http", "/mcp", 202],
    ]);
    expect(events[0]!.response).toEqual({ status: 200, content_type: "application/json", body: a1.body });
    expect(events[3]!.response).toEqual({ status: 202, body: "" });
  });

  it("passes refusals through untouched, records none of them, and warns once on close", async () => {
    const { proxy, sink, warnings } = await proxyTo(await fakeUpstream());
    const c = connection(proxy.url);
    const browser = await c("{}", { origin: "http://evil.example" });
    expect(browser.status).toBe(403);
    const wrong = await c("{}", { authorization: "Bearer nope" });
    expect([wrong.status, wrong.body]).toEqual([401, '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Authentication required"}}']);
    expect(proxy.refused()).toBe(2);
    expect(sink.header()).toBeUndefined(); // nothing recorded yet
    await proxy.close();
    expect(warnings).toEqual(["MCP over HTTP: 2 request(s) the driver refused (401, 403, 405, …) were forwarded but not recorded"]);
  });

  it("drops the harness's connection when the driver is unreachable, with a warning", async () => {
    const gone = await fakeUpstream();
    await cleanups.shift()!(); // close the upstream now
    const { proxy, warnings } = await proxyTo(gone);
    await expect(connection(proxy.url)('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(warnings[0]).toMatch(/^MCP over HTTP: POST \/mcp to http:\/\/127\.0\.0\.1:\d+ failed \(connect ECONNREFUSED/);
  });
});
