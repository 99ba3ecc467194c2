// Records MCP over HTTP through the recording proxy in front of the real runtime served as
// `cua-driver serve` serves it (serve --driver sdk --transport http), then replays the cassette to
// the same clients (serve DIR --transport http, and msw cassetteHandlers in process).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { setupServer } from "msw/node";
import { describe, expect, it } from "vitest";
import { readCassetteSync, restoreText } from "#src/cassette/index.js";
import type { HttpEvent } from "#src/schema/cassette.js";
import { cassetteHandlers } from "#src/transports/http/msw.js";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { sdkUnavailable } from "../helpers/sdk-available.js";
import { startServeHttp, startServeHttpInProcess } from "../helpers/serve-http.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const TOKEN = "rec-http-token-0123456789abcdefghijklmnopqrstuvwxyz";
const HARNESS = path.join(repoRoot, "test/fixtures/harnesses/mcp-http-harness.mjs");
const PNG = path.join(repoRoot, "test/fixtures/frames/dialog-before.png");
const skip = await sdkUnavailable("0.21.0");
if (skip) console.warn(`\n!!! ${skip}\n`);

// The upstream (`serve --driver sdk:0.21.0`) is spawned: the record under test runs in this process beside it.
const startServe = (args: string[]) => startServeHttp({ args, token: TOKEN });

const harnessEnv = (url: string) => ({ CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN, CUA_CONTRACT_MCP_HTTP_URL: url });
const recordArgs = (out: string, upstream: string, ...rest: string[]) => [
  "record",
  "--driver",
  "sdk:0.21.0",
  "--no-probe",
  "--out",
  out,
  "--http-upstream",
  upstream,
  ...rest,
  "--",
  process.execPath,
  HARNESS,
];

function httpEvents(dir: string) {
  const cassette = readCassetteSync(dir);
  return { cassette, events: cassette.events.filter((e): e is HttpEvent => e.kind === "http") };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

describe.skipIf(skip !== undefined)("record --http-upstream (MCP over HTTP, real runtime)", () => {
  it("records plain JSON-RPC posts byte for byte, keeps the token off disk, and serve --transport http replays the same bytes", {
    timeout: 60_000,
  }, async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    let recorded: string;
    {
      await using upstream = await startServe(["--driver", "sdk:0.21.0"]);
      const r = await runCliInProcess([...recordArgs(out, upstream.url), "fetch", PNG], { env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN } });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      recorded = String(r.stdout);
    }
    const seen = recorded
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { status: number; body: string });
    expect(seen.map((s) => s.status)).toEqual([200, 202, 200, 200, 200, 200]);
    expect(seen[0]!.body).toMatch(/^\{"jsonrpc":"2.0","id":1,"result":\{"capabilities":\{"tools":\{\}\},"instructions":"cua-driver:/);
    expect(seen[5]!.body).toContain("has no reviewed risk classification");

    const { cassette, events } = httpEvents(out);
    expect(cassette.header.transport).toBe("http");
    expect(cassette.header.driver).toMatchObject({ source: "sdk", version: "0.21.0" });
    expect(events.map((e) => [e.request.method, e.request.path, e.response.status])).toEqual([
      ["POST", "/mcp", 200],
      ["POST", "/mcp", 202],
      ["POST", "/mcp", 200],
      ["POST", "/mcp", 200],
      ["POST", "/mcp", 200],
      ["POST", "/mcp", 200],
    ]);
    // Exact bytes: every response body restores to what the harness received.
    expect(events.map((e) => restoreText(cassette, e, "response.body"))).toEqual(seen.map((s) => s.body));
    expect(events[1]!.response.body).toBe("");
    expect(events[0]!.response.content_type).toBe("application/json");
    // The image the harness sent is a frame, byte-identical to the file, and restores into the request.
    const splice = events[5]!.frames?.[0];
    expect(splice?.field).toBe("request.body");
    expect(readFileSync(path.join(out, splice!.ref)).equals(readFileSync(PNG))).toBe(true);
    expect(restoreText(cassette, events[5]!, "request.body")).toContain(readFileSync(PNG).toString("base64"));
    expect(typeof events[5]!.request.body === "string" && events[5]!.request.body.length).toBeLessThan(400);
    // Redaction as on the other transports; the bearer token is in no file at all.
    expect(events[4]!.request.body).toMatch(/"value":"«redacted:value:[0-9a-f]{8}»"/);
    expect(seen[4]!.body).toContain("invalid_element_token");
    for (const file of filesUnder(out)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(TOKEN), file).toBe(false);
      expect(bytes.includes("correct horse battery staple"), file).toBe(false);
    }

    const inspected = await runCliInProcess(["inspect", out, "--json"]);
    expect(inspected.exitCode, String(inspected.stderr)).toBe(0);
    const summary = JSON.parse(String(inspected.stdout)) as {
      events: number;
      by_kind: Record<string, number>;
      by_transport: Record<string, number>;
      by_tool: Record<string, number>;
      frames: { count: number; missing: unknown[] };
    };
    expect(summary.by_kind).toEqual({ cli: 2, http: 6 });
    expect(summary.by_transport.http).toBe(6);
    expect(summary.by_tool).toMatchObject({ get_screen_size: 1, set_value: 1, annotate_image: 1 });
    expect([summary.events, summary.frames.count, summary.frames.missing]).toEqual([8, 1, []]);

    // Replay: the same client, the same bytes, no driver behind it.
    await using replay = await startServeHttpInProcess({ args: [out], token: TOKEN });
    const again = await execa(process.execPath, [HARNESS, "fetch", PNG], { env: harnessEnv(replay.url), reject: false });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(recorded.trim());
  });

  it("records the official MCP SDK Streamable HTTP client and replays it through serve and msw", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    let recorded: string;
    {
      await using upstream = await startServe(["--driver", "sdk:0.21.0"]);
      const r = await runCliInProcess([...recordArgs(out, upstream.url), "sdk"], { env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN } });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      recorded = String(r.stdout);
      // The client's GET for an SSE stream is refused by the driver (405): forwarded, not recorded.
      expect(r.stderr).toContain("MCP over HTTP: 1 request(s) the driver refused (401, 403, 405, …) were forwarded but not recorded");
      expect(String(r.stderr)).not.toMatch(/unknown format "uint(32|64)" ignored/);
    }
    const result = JSON.parse(recorded) as { server: { name: string; version: string }; tools: number; typed: { isError?: boolean } };
    // the binary's roster: the runtime's 59 tools and check_for_update
    expect([result.server.version, result.tools]).toEqual(["0.21.0", 60]);
    const { cassette, events } = httpEvents(out);
    const methods = events.map((e) => (JSON.parse(restoreText(cassette, e, "request.body")) as { method: string }).method);
    expect(methods).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call"]);
    for (const file of filesUnder(out)) expect(readFileSync(file).includes(TOKEN), file).toBe(false);

    await using replay = await startServeHttpInProcess({ args: [out], token: TOKEN });
    const again = await execa(process.execPath, [HARNESS, "sdk"], { env: harnessEnv(replay.url), reject: false });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(recorded.trim());

    // In process: msw answers the same requests with the recorded bodies, no port at all.
    const handlers = cassetteHandlers(out, { token: TOKEN });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: "error" });
    try {
      for (const e of events) {
        const body = restoreText(cassette, e, "request.body");
        const r = await fetch("http://127.0.0.1:1/mcp", {
          method: "POST",
          body,
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        });
        expect(r.status).toBe(e.response.status);
        expect(await r.text()).toBe(restoreText(cassette, e, "response.body"));
      }
      expect(handlers.summary()).toMatchObject({ unmatched: 0 });
    } finally {
      server.close();
    }
  });

  it("forwards refused requests (bad token, Origin) with the driver's bytes, records neither, and keeps a token in a body off disk with --no-redact", {
    timeout: 60_000,
  }, async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const script = path.join(dir.path, "h.mjs");
    writeFileSync(
      script,
      `
const url = process.env.CUA_CONTRACT_MCP_HTTP_URL;
const token = process.env.CUA_DRIVER_RS_MCP_HTTP_TOKEN;
const post = (body, auth) => fetch(url, { method: "POST", body, headers: { authorization: "Bearer " + auth, "content-type": "application/json" } });
const bad = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', "x".repeat(40));
console.log(bad.status, await bad.text());
const browser = await fetch(url, { method: "POST", body: "{}", headers: { authorization: "Bearer " + token, origin: "http://evil.example" } });
console.log(browser.status, await browser.text());
const typed = await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "set_value", arguments: { pid: 1, window_id: 1, element_token: "bogus", value: token } } }), token);
console.log(typed.status, process.env.CUA_DRIVER_RS_MCP_HTTP_PORT === new URL(url).port);
`,
    );
    await using upstream = await startServe(["--driver", "sdk:0.21.0"]);
    const r = await runCliInProcess(
      ["record", "--driver", "sdk:0.21.0", "--no-probe", "--no-redact", "--out", out, "--http-upstream", upstream.url, "--", process.execPath, script],
      {
        env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN },
      },
    );
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout).trim().split("\n")).toEqual([
      '401 {"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Authentication required"}}',
      '403 {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Browser-origin requests are forbidden"}}',
      "200 true",
    ]);
    expect(r.stderr).toContain("2 request(s) the driver refused");
    const { events } = httpEvents(out);
    expect(events).toHaveLength(1);
    expect(events[0]!.request.body).toMatch(/"value":"«redacted:bearer:[0-9a-f]{8}»"/);
    for (const file of filesUnder(out)) {
      expect(readFileSync(file).includes(TOKEN), file).toBe(false);
      expect(readFileSync(file).includes("x".repeat(40)), file).toBe(false);
    }
  });

  it("loses at most the exchange in flight when record is SIGKILLed", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const script = path.join(dir.path, "loop.mjs");
    const donePath = path.join(dir.path, "done");
    writeFileSync(
      script,
      `
import { writeFileSync } from "node:fs";
const headers = { authorization: "Bearer " + process.env.CUA_DRIVER_RS_MCP_HTTP_TOKEN, "content-type": "application/json" };
for (let i = 1; i <= 2000; i++) {
  try {
    const r = await fetch(process.env.CUA_CONTRACT_MCP_HTTP_URL, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_screen_size", arguments: {} } }) });
    await r.text();
  } catch { break; }
  writeFileSync(${JSON.stringify(donePath)}, String(i));
}
`,
    );
    await using upstream = await startServe(["--driver", "sdk:0.21.0"]);
    const rec = execa(process.execPath, [cliPath, ...recordArgs(out, upstream.url).slice(0, -2), process.execPath, script], {
      env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN },
      reject: false,
    });
    const done = () => {
      try {
        return Number(readFileSync(donePath, "utf8"));
      } catch {
        return 0;
      }
    };
    for (let i = 0; i < 400 && done() < 5; i++) await new Promise((r) => setTimeout(r, 25));
    rec.kill("SIGKILL");
    await rec;
    await new Promise((r) => setTimeout(r, 500)); // the orphaned harness sees its connection fail and stops
    const completed = done();
    expect(completed).toBeGreaterThanOrEqual(5);
    const inspected = await runCliInProcess(["inspect", out, "--json"]);
    expect(inspected.exitCode, String(inspected.stderr)).toBe(0);
    // Every exchange the harness saw complete was on disk before its answer was sent.
    const summary = JSON.parse(String(inspected.stdout)) as { by_tool: Record<string, number> };
    expect(summary.by_tool.get_screen_size).toBeGreaterThanOrEqual(completed);
    expect(summary.by_tool.get_screen_size).toBeLessThanOrEqual(completed + 1);
  });
});

describe("record --http-upstream: bad input", () => {
  it.each([
    [["--http-upstream", "https://example.com/mcp"], '--http-upstream "https://example.com/mcp" is not an http:// address on loopback'],
    [["--http-upstream", "not a url"], '--http-upstream "not a url" is not a URL'],
    [["--http-port", "8080"], "--http-port needs --http-upstream"],
    [["--http-upstream", "http://127.0.0.1:9/mcp", "--http-port", "70000"], "--http-port 70000 is not a port"],
  ])("%j exits 2", async (flags, message) => {
    await using dir = await tmpDir();
    const r = await runCliInProcess(["record", "--driver", "sdk:0.21.0", "--no-probe", "--out", path.join(dir.path, "rec"), ...flags, "--", "true"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
