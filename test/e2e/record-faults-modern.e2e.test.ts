// `record --faults PLAN` over MCP against the 0.28.2 runtime, with a raw JSON-RPC client speaking the
// 2026-07-28 era (and one legacy stream beside it): each injected fault is rendered in the era of its
// request as the replay renders it, so the replay of that recording gives the harness the same bytes.
// Only read-only tools reach the runtime (get_config, list_windows), so no desktop is needed.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { sdkUnavailable } from "../helpers/sdk-available.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const skip = await sdkUnavailable("0.28.2");
if (skip) console.warn(`\n!!! ${skip}\n`);

const CLIENT = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const call = (id: number, name: string, args: object, modern = true) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...(modern ? { _meta: META } : {}) } });
const CLICK = { pid: 1, window_id: 2, element_token: "s00000001:3" };

/** One client process per stream: a stream a fault ends gets no more requests. */
const STREAMS = [
  [
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: META } }),
    call(1, "get_config", {}), // empty (forwarded)
    call(2, "list_windows", {}), // truncated (forwarded)
    call(3, "click", CLICK), // refusal (never reaches the runtime)
    call(4, "get_config", {}), // protocol_error unsupported_version
    call(5, "list_windows", {}), // daemon_down
    call(6, "get_config", {}), // the runtime's own answer
  ],
  [call(1, "list_windows", {})], // exit 3
  [call(1, "get_config", {})], // daemon_died_midcall: the process panics (101)
  [
    call(1, "get_config", {}, false), // refused by the driver's era check before initialize: draws no fault
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
    call(3, "get_config", {}, false), // protocol_error on a legacy request: the legacy era's refusal
  ],
];

const RULES = [
  { match: { tool: "get_config", nth: 1 }, fault: { kind: "empty" } },
  { match: { tool: "list_windows", nth: 1 }, fault: { kind: "truncated" } },
  { match: { tool: "click", nth: 1 }, fault: { kind: "refusal", code: "stale_element_token" } },
  { match: { tool: "get_config", nth: 2 }, fault: { kind: "protocol_error", reason: "unsupported_version" } },
  { match: { tool: "list_windows", nth: 2 }, fault: { kind: "daemon_down" } },
  { match: { tool: "list_windows", nth: 3 }, fault: { kind: "exit", code: 3, stderr: "boom\n" } },
  { match: { tool: "get_config", nth: 4 }, fault: { kind: "daemon_died_midcall" } },
  { match: { tool: "get_config", nth: 5 }, fault: { kind: "protocol_error", reason: "unsupported_version" } },
];

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const ENVELOPE = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"cua-driver","version":"0.28.2"}}';

describe.skipIf(skip !== undefined)("record --faults over MCP in the 2026-07-28 era (the 0.28.2 runtime)", () => {
  it("renders each injected fault in its request's era, and the replay gives the harness the same bytes", { timeout: 90_000 }, async () => {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    await writeFile(plan, JSON.stringify({ rules: RULES }));
    const harness = path.join(dir.path, "harness.sh");
    await writeFile(harness, `set -e\n${STREAMS.map((s) => `python3 ${CLIENT} ${shellQuote(JSON.stringify(s))}`).join("\n")}\n`);
    const out = path.join(dir.path, "rec");

    const recorded = await runCli(["record", "--out", out, "--driver", "sdk:0.28.2", "--no-probe", "--faults", plan, "--", "sh", harness]);
    expect(recorded.exitCode, String(recorded.stderr)).toBe(0);
    const live = String(recorded.stdout);
    const streams = live
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { lines: (string | null)[]; exit: number; stderr: string });
    const [modern, exited, died, legacy] = streams as [(typeof streams)[number], (typeof streams)[number], (typeof streams)[number], (typeof streams)[number]];
    // a result fault gets the modern envelope, on a forwarded call and on one the runtime never saw
    expect(modern.lines[1]).toBe(`{"jsonrpc":"2.0","id":1,"result":{${ENVELOPE},"content":[],"resultType":"complete"}}`);
    expect(modern.lines[2]!.startsWith(`{"jsonrpc":"2.0","id":2,"result":{${ENVELOPE.slice(0, 40)}`)).toBe(true);
    expect(modern.lines[3]).toContain(ENVELOPE);
    expect(modern.lines[3]).toContain('"resultType":"complete"');
    expect(modern.lines[3]).toContain('"code":"stale_element_token"');
    // protocol_error: the era's own refusal, with the version the request asked for
    expect(modern.lines[4]).toBe(
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-07-28","supported":["2026-07-28"]}}}',
    );
    expect(modern.lines[5]).toMatch(/^\{"jsonrpc":"2.0","id":5,"error":\{"code":-32603,"message":"daemon transport error forwarding `list_windows`/);
    expect(modern.lines[6]).toContain('"resultType":"complete"');
    expect([exited.lines, exited.exit, exited.stderr]).toEqual([["EOF"], 3, "boom\n"]);
    expect([died.lines, died.exit]).toEqual([["EOF"], 101]);
    // the legacy stream: the driver's era refusal (no fault drawn for it), then the legacy twin of protocol_error
    const missingMeta = (id: number) => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}`;
    expect([legacy.lines[0], legacy.lines[2]]).toEqual([missingMeta(1), missingMeta(3)]);

    const marks = (await readFile(path.join(out, "cassette.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .slice(1)
      .flatMap((l) => {
        const e = JSON.parse(l) as { fault?: { kind: string; rule: number; forwarded: boolean } };
        return e.fault ? [[e.fault.rule, e.fault.kind, e.fault.forwarded]] : [];
      });
    expect(marks).toEqual(RULES.map((r, i) => [i, r.fault.kind, r.fault.kind === "empty" || r.fault.kind === "truncated"]));

    // a scripted client, not an agent: its clicks are not meant to follow an observation
    const log = path.join(dir.path, "log.jsonl");
    const replayed = await runCliInProcess(["replay", out, "--faults", plan, "--log", log, "--no-invariants", "--", "sh", harness]);
    expect(replayed.exitCode, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(live);
    const entries = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.at(-1)).toMatchObject({ type: "summary", unmatched: 0, faults: RULES.length });
  });
});
