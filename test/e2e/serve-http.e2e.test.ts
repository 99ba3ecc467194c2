import { writeFileSync } from "node:fs";
import path from "node:path";
import { setupServer } from "msw/node";
import { describe, expect, it } from "vitest";
import { cassetteHandlers } from "#src/transports/http/msw.js";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { startServeHttpInProcess } from "../helpers/serve-http.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const CASSETTE = path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk");
const TOKEN = "t".repeat(40);
const call = (id: number, name: string, args: object = {}) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

// in this process: what is tested is what the server answers (serve-signal.e2e.test.ts tests the process)
const startServe = (extra: string[] = []) => startServeHttpInProcess({ args: [CASSETTE, ...extra], token: TOKEN });

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers } });

describe("cua-contract serve --transport http", () => {
  it("serves MCP over HTTP like cua-driver serve: token, Origin, 405, 202, recorded bytes", async () => {
    await using s = await startServe();
    const init = await post(s.url, '{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}');
    expect(init.status).toBe(200);
    expect(await init.text()).toMatch(/^\{"jsonrpc":"2.0","id":7,"result":\{"capabilities":\{"tools":\{\}\},"instructions":/);
    expect((await post(s.url, '{"jsonrpc":"2.0","method":"notifications/initialized"}')).status).toBe(202);
    const noToken = await fetch(s.url, { method: "POST", body: "{}" });
    expect(noToken.status).toBe(401);
    expect(await noToken.text()).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Authentication required"}}');
    const browser = await post(s.url, "{}", { origin: "http://evil.example" });
    expect(browser.status).toBe(403);
    expect(await browser.text()).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Browser-origin requests are forbidden"}}');
    expect((await fetch(s.url.replace("/mcp", "/anything"), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(405);
    const windows = await post(s.url.replace("/mcp", "/other-path"), call(8, "list_windows"));
    expect(await windows.text()).toMatch(/^\{"jsonrpc":"2.0","id":8,"result":\{"content":\[\{"text":"Found 1 windows:/);
  });

  it("refuses to start without a valid token (exit 2)", async () => {
    const r = await runCliInProcess(["serve", CASSETTE, "--transport", "http", "--port", "0"], { env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: "short" } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("CUA_DRIVER_RS_MCP_HTTP_TOKEN: MCP over HTTP needs a bearer token");
  });

  it("drops the connection for daemon_died_midcall and delays for delay", async () => {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          { match: { tool: "list_windows", nth: 1 }, fault: { kind: "daemon_died_midcall" } },
          { match: { tool: "list_windows", nth: 2 }, fault: { kind: "delay", ms: 300 } },
        ],
      }),
    );
    await using s = await startServe(["--faults", plan]);
    await expect(post(s.url, call(1, "list_windows"))).rejects.toThrow();
    const t = Date.now();
    const delayed = await post(s.url, call(2, "list_windows"));
    expect(delayed.status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(290);
  });
});

describe("faults over HTTP", () => {
  it("hang leaves the request unanswered; truncated cuts the body; refusal and empty are results", async () => {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          { match: { tool: "list_windows", nth: 1 }, fault: { kind: "hang" } },
          { match: { tool: "list_windows", nth: 2 }, fault: { kind: "truncated" } },
          { match: { tool: "list_windows", nth: 3 }, fault: { kind: "empty" } },
          { match: { tool: "click", nth: 1 }, fault: { kind: "refusal", code: "snapshot_id_required" } },
        ],
      }),
    );
    await using s = await startServe(["--faults", plan]);
    const hung = fetch(s.url, {
      method: "POST",
      body: call(1, "list_windows"),
      headers: { authorization: `Bearer ${TOKEN}` },
      signal: AbortSignal.timeout(500),
    });
    await expect(hung).rejects.toThrow(/abort|timeout/i);
    // each connection is its own session: a new one is answered
    const cut = await (await post(s.url, call(2, "list_windows"))).text();
    expect(cut.startsWith('{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"Found 1 windows:')).toBe(true);
    expect(() => JSON.parse(cut)).toThrow();
    expect(await (await post(s.url, call(3, "list_windows"))).text()).toBe(
      '{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"Found 0 windows:","type":"text"}],"structuredContent":{"windows":[]}}}',
    );
    const refused = JSON.parse(await (await post(s.url, call(4, "click", { pid: 24132, window_id: 4194311, element_token: "s00000004:15" }))).text());
    expect(refused.result).toMatchObject({ isError: true, structuredContent: { refusal: { code: "snapshot_id_required" }, status: "refused" } });
  });
});

describe("cassetteHandlers (msw)", () => {
  it("replays the same bytes in process with no port", async () => {
    const handlers = cassetteHandlers(CASSETTE, {
      token: TOKEN,
      faults: { rules: [{ match: { tool: "click" }, fault: { kind: "refusal", code: "stale_element_token" } }] },
    });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: "error" });
    try {
      const init = await post("http://127.0.0.1:8765/mcp", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}');
      expect(await init.text()).toContain('"protocolVersion":"2025-06-18"');
      const windows = await post("http://127.0.0.1:8765/mcp", call(2, "list_windows"));
      expect(await windows.text()).toMatch(/^\{"jsonrpc":"2.0","id":2,"result":\{"content":\[\{"text":"Found 1 windows:/);
      const click = await post("http://localhost:9/mcp", call(3, "click", { pid: 24132, window_id: 4194311, element_token: "s00000004:15" }));
      expect(JSON.parse(await click.text()).result.structuredContent.refusal.code).toBe("stale_element_token");
      expect((await fetch("http://127.0.0.1:8765/mcp", { method: "POST", body: "{}" })).status).toBe(401);
      expect(handlers.summary()).toMatchObject({ served: 2, faults: 1, unmatched: 0 });
    } finally {
      server.close();
    }
  });

  it("renders daemon death as a network error and delay as a late answer", async () => {
    const server = setupServer(
      ...cassetteHandlers(CASSETTE, {
        faults: {
          rules: [
            { match: { tool: "list_windows", nth: 1 }, fault: { kind: "daemon_died_midcall" } },
            { match: { tool: "list_windows", nth: 2 }, fault: { kind: "delay", ms: 250 } },
          ],
        },
      }),
    );
    server.listen({ onUnhandledRequest: "error" });
    try {
      await expect(post("http://127.0.0.1:1/mcp", call(1, "list_windows"))).rejects.toThrow();
      const t = Date.now();
      expect((await post("http://127.0.0.1:1/mcp", call(2, "list_windows"))).status).toBe(200);
      expect(Date.now() - t).toBeGreaterThanOrEqual(240);
    } finally {
      server.close();
    }
  });
});
