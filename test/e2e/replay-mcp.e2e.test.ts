import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { createEngine } from "#src/replay/engine/engine.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const CASSETTE = path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk");
const CLIENT = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
const PID = 24132;
const WID = 4194311;
const call = (id: number | string, name: string, args: object) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** Recorded response lines, frames put back, by the id they were recorded with. */
function recordedLines(): Map<string, string> {
  const cassette = loadReplayCassette(CASSETTE);
  const { exchanges } = createEngine({ events: cassette.events, frame: cassette.frame! });
  const out = new Map<string, string>();
  for (const x of exchanges) if (x.rpc?.response) out.set(/"id":([^,]+),/.exec(x.rpc.response)![1]!, x.rpc.response);
  return out;
}

async function replayMcp(options: { lines: string[]; plan?: object; extra?: string[] }) {
  await using dir = await tmpDir();
  const extra = [...(options.extra ?? [])];
  if (options.plan) {
    writeFileSync(path.join(dir.path, "plan.json"), JSON.stringify(options.plan));
    extra.push("--faults", path.join(dir.path, "plan.json"));
  }
  const log = path.join(dir.path, "log.jsonl");
  const r = await runCliInProcess(["replay", CASSETTE, "--log", log, "--invariants", "none", ...extra, "--", "python3", CLIENT, JSON.stringify(options.lines)]);
  const seen = JSON.parse(r.stdout.trim().split("\n")[0]!) as { lines: (string | null)[]; exit: number | string; stderr: string };
  const entries = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { r, seen, entries };
}

const INIT =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}';

describe("cua-contract replay (cua-driver mcp through the shim)", () => {
  it("answers byte for byte: recorded lines with the client's ids, protocol behaviour as the driver", async () => {
    const recorded = recordedLines();
    const { r, seen } = await replayMcp({
      lines: [
        INIT.replace('"id":1', '"id":"init-x"'),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":3,"method":"ping"}',
        "{oops",
        '{"jsonrpc":"2.0","id":4,"method":"tools/call"}',
        call(40, "list_windows", {}),
        call(41, "get_window_state", { pid: PID, window_id: WID, max_elements: 40 }),
        call(42, "click", { pid: PID, window_id: WID, element_token: "s00000004:15" }),
      ],
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen.exit).toBe(0);
    const init = recorded.get("1")!;
    expect(seen.lines[0]).toBe(init.replace('"id":1,', '"id":"init-x",')); // protocolVersion stays 2025-06-18
    expect(seen.lines[0]).toContain('"protocolVersion":"2025-06-18"');
    expect(seen.lines[1]).toBe(recorded.get("2"));
    expect(seen.lines[2]).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Unknown method: ping"}}');
    expect(seen.lines[3]).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
    expect(seen.lines[4]).toBe('{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: missing params"}}');
    expect(seen.lines[5]).toBe(recorded.get("3")!.replace('"id":3,', '"id":40,'));
    expect(seen.lines[6]).toBe(recorded.get("4")!.replace('"id":4,', '"id":41,'));
    expect(seen.lines[6]!.length).toBeGreaterThan(100_000); // the image came back from frames/
    expect(seen.lines[7]).toBe(recorded.get("5")!.replace('"id":5,', '"id":42,'));
  });

  it("refuses a tool the driver does not list with the direct mode's permission_denied result, logged for no-unknown-tools", async () => {
    const { r, seen, entries } = await replayMcp({ lines: [INIT, call(50, "frobnicate", { x: 1 }), call(51, "list_windows", {})] });
    expect(seen.lines[1]).toBe(
      `{"jsonrpc":"2.0","id":50,"result":{"content":[{"text":"Permission denied: tool 'frobnicate' has no reviewed risk classification","type":"text"}],"isError":true,"structuredContent":{"code":"permission_denied"}}}`,
    );
    expect(seen.lines[2]).toBe(recordedLines().get("3")!.replace('"id":3,', '"id":51,'));
    expect(entries.find((e) => e.tool === "frobnicate")).toMatchObject({ outcome: "replayed", synthesized: "permission_denied", kind: "mutation" });
    expect(r.exitCode, r.stderr).toBe(0); // --invariants none: only the unmatched count could fail it, and it is 0
  });

  it("renders MCP faults: error lines, a cut line, EOF with exit code, a stuck stream", async () => {
    const plan = {
      rules: [
        { match: { tool: "list_windows", nth: 1 }, fault: { kind: "daemon_down" } },
        { match: { tool: "list_windows", nth: 2 }, fault: { kind: "daemon_died_midcall", mode: "proxy" } },
        { match: { tool: "list_windows", nth: 3 }, fault: { kind: "truncated" } },
        { match: { tool: "list_windows", nth: 4 }, fault: { kind: "empty" } },
        { match: { tool: "list_windows", nth: 5 }, fault: { kind: "delay", ms: 300 } },
        { match: { tool: "click", nth: 1 }, fault: { kind: "refusal", code: "session_ended" } },
        { match: { tool: "get_window_state", nth: 1 }, fault: { kind: "corrupt_image" } },
        { match: { tool: "click", nth: 2 }, fault: { kind: "daemon_died_midcall" } },
      ],
    };
    const token = { pid: PID, window_id: WID, element_token: "s00000004:15" };
    const { seen, entries } = await replayMcp({
      plan,
      lines: [
        INIT,
        call(10, "list_windows", {}),
        call(11, "list_windows", {}),
        call(12, "list_windows", {}),
        call(13, "list_windows", {}),
        call(14, "list_windows", {}),
        call(15, "click", token),
        call(16, "get_window_state", { pid: PID, window_id: WID, max_elements: 40 }),
        call(17, "click", token),
        call(18, "list_windows", {}),
      ],
    });
    const recorded = recordedLines();
    expect(seen.lines[1]).toBe(
      '{"jsonrpc":"2.0","id":10,"error":{"code":-32603,"message":"daemon transport error forwarding `list_windows`: connect to /home/user/.cache/cua-driver/cua-driver.sock: Connection refused (os error 111)"}}',
    );
    expect(seen.lines[2]).toBe(
      '{"jsonrpc":"2.0","id":11,"error":{"code":-32603,"message":"daemon transport error forwarding `list_windows`: daemon closed connection without response"}}',
    );
    const full = recorded.get("3")!.replace('"id":3,', '"id":12,');
    expect(full.startsWith(seen.lines[3]!)).toBe(true);
    expect(() => JSON.parse(seen.lines[3]!)).toThrow();
    expect(seen.lines[4]).toBe('{"jsonrpc":"2.0","id":13,"result":{"content":[{"text":"Found 0 windows:","type":"text"}],"structuredContent":{"windows":[]}}}');
    expect(seen.lines[5]).toBe(recorded.get("3")!.replace('"id":3,', '"id":14,'));
    const refusal = JSON.parse(seen.lines[6]!) as { result: { isError: boolean; structuredContent: { refusal: { code: string } } } };
    expect(refusal.result.isError).toBe(true);
    expect(refusal.result.structuredContent.refusal.code).toBe("session_ended");
    const corrupted = JSON.parse(seen.lines[7]!) as { result: { content: { type: string; data?: string }[] } };
    const original = JSON.parse(recorded.get("4")!) as typeof corrupted;
    const img = (x: typeof corrupted) => x.result.content.find((b) => b.type === "image")!.data!;
    expect(img(corrupted)).toHaveLength(img(original).length);
    expect(img(corrupted)).not.toBe(img(original));
    // direct mode: the driver process dies mid-call, stdout ends, nothing more is answered
    expect(seen.lines[8]).toBe("EOF");
    expect(seen.exit).toBe(101);
    const faults = entries.filter((e) => e.type === "request").map((e) => (e.fault as { kind: string } | undefined)?.kind ?? null);
    expect(faults).toEqual([null, "daemon_down", "daemon_died_midcall", "truncated", "empty", "delay", "refusal", "corrupt_image", "daemon_died_midcall"]);
    expect(entries.filter((e) => e.type === "stream").map((e) => e.event)).toEqual(["open", "close"]);
  });

  it("hang: the call and every request after it go unanswered; exit with code and stderr", async () => {
    const hung = await replayMcp({
      plan: { rules: [{ match: { tool: "list_windows" }, fault: { kind: "hang" } }] },
      lines: [INIT, call(2, "list_windows", {}), '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'],
    });
    expect(hung.seen.lines).toEqual([expect.stringContaining('"id":1,"result"'), null, null]);
    const exited = await replayMcp({
      plan: { rules: [{ match: { tool: "list_windows" }, fault: { kind: "exit", code: 9, stderr: "thread 'main' panicked\n" } }] },
      lines: [INIT, call(2, "list_windows", {})],
    });
    expect(exited.seen).toMatchObject({ lines: [expect.any(String), "EOF"], exit: 9, stderr: "thread 'main' panicked\n" });
  });
});

describe("timeouts across MCP processes", () => {
  it("timeout_after_effect moves the epoch, timeout_before_effect does not; a new process carries on", async () => {
    const token = { pid: PID, window_id: WID, element_token: "s00000004:15" };
    const run = async (kind: string) => {
      await using dir = await tmpDir();
      writeFileSync(path.join(dir.path, "plan.json"), JSON.stringify({ rules: [{ match: { tool: "click", nth: 1 }, fault: { kind } }] }));
      const first = JSON.stringify([INIT, call(2, "click", token)]);
      const second = JSON.stringify([INIT, call(3, "click", token)]);
      const r = await runCliInProcess([
        "replay",
        CASSETTE,
        "--faults",
        path.join(dir.path, "plan.json"),
        "--invariants",
        "none",
        "--json",
        "--",
        "sh",
        "-c",
        `python3 "$0" "$1"; python3 "$0" "$2"`,
        CLIENT,
        first,
        second,
      ]);
      const [a, b, summary] = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { lines: (string | null)[] });
      return { a: a!, b: b!, summary: summary as unknown as Record<string, unknown> };
    };
    const after = await run("timeout_after_effect");
    expect(after.a.lines[1]).toBeNull(); // the click never answers
    // the click counted: sending it again gets the second recorded click, a stale-token refusal
    expect(after.b.lines[1]).toContain('"code":"stale_element_token"');
    expect(after.summary).toMatchObject({ faults: 1, unmatched: 0 });
    const before = await run("timeout_before_effect");
    expect(before.a.lines[1]).toBeNull();
    // the click did not count: sending it again gets the first recorded click's answer
    expect(before.b.lines[1]).toContain('"effect":"unverifiable"');
    expect(before.summary).toMatchObject({ faults: 1, unmatched: 0 });
  });
});

describe("cua-contract serve --transport mcp", () => {
  it("is an MCP server the official SDK client can use as its command", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, "serve", CASSETTE, "--transport", "mcp"], stderr: "pipe" });
    const client = new Client({ name: "sdk-client", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toEqual({ name: "cua-driver", version: "0.21.0" });
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(60);
      const windows = await client.callTool({ name: "list_windows", arguments: {} });
      expect(windows.structuredContent).toMatchObject({ windows: [{ window_id: WID, title: "Application Class" }] });
      const state = await client.callTool({ name: "get_window_state", arguments: { pid: PID, window_id: WID, max_elements: 40 } });
      const image = (state.content as { type: string; data?: string }[]).find((b) => b.type === "image")!;
      expect(Buffer.from(image.data!, "base64").subarray(1, 4).toString()).toBe("PNG");
    } finally {
      await client.close();
    }
  });
});
