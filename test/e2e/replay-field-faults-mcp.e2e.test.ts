import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { startServeHttpInProcess } from "../helpers/serve-http.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const CASSETTE = path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk");
const CLIENT = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
const PID = 24132;
const WID = 4194311;
const LOOK = { pid: PID, window_id: WID, max_elements: 40 };
const CLICK = { pid: PID, window_id: WID, element_token: "s00000004:15" };
const call = (id: number | string, name: string, args: object = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const INIT =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}';

type Seen = { lines: (string | null)[]; exit: number | string; waits_ms: number[] };

/** One or more `cua-driver mcp` processes (one list of lines each) under one replay; what each saw, and the log. */
async function replayMcp(plan: object, ...processes: string[][]) {
  await using dir = await tmpDir();
  writeFileSync(path.join(dir.path, "plan.json"), JSON.stringify(plan));
  const log = path.join(dir.path, "log.jsonl");
  const script = processes.map((_, i) => `python3 "$0" "$${i + 1}"`).join("; ");
  const r = await runCliInProcess(
    [
      "replay",
      CASSETTE,
      "--faults",
      path.join(dir.path, "plan.json"),
      "--log",
      log,
      "--invariants",
      "none",
      "--",
      "sh",
      "-c",
      script,
      CLIENT,
      ...processes.map((p) => JSON.stringify(p)),
    ],
    { env: { MCP_LINES_WAITS: "1" } },
  );
  const seen = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Seen);
  const requests = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.type === "request" && e.method === "call");
  return { seen, requests };
}

describe("field faults over MCP stdio (cua-driver mcp through the shim)", () => {
  it("stall: the click and every answer after it come late on that process", async () => {
    const { seen, requests } = await replayMcp({ rules: [{ match: { tool: "click" }, fault: { kind: "stall", ms: 400 } }] }, [
      INIT,
      call(2, "get_window_state", LOOK),
      call(3, "click", CLICK),
      call(4, "list_windows"),
    ]);
    const [one] = seen;
    expect(one!.lines[2]).toMatch(/^\{"jsonrpc":"2.0","id":3,"result":/);
    expect(one!.lines[3]).toMatch(/^\{"jsonrpc":"2.0","id":4,"result":\{"content":\[\{"text":"Found 1 windows:/);
    expect(one!.waits_ms[1]).toBeLessThan(400);
    expect(one!.waits_ms[2]).toBeGreaterThanOrEqual(400);
    expect(one!.waits_ms[3]).toBeGreaterThanOrEqual(400);
    expect(requests.map((e) => (e.fault as { kind: string } | undefined)?.kind ?? null)).toEqual([null, "stall", "stall"]);
  }, 60_000);

  it("freeze: nothing answers on that process; a new process does", async () => {
    const { seen, requests } = await replayMcp(
      { rules: [{ match: { tool: "click" }, fault: { kind: "freeze" } }] },
      [INIT, call(2, "click", CLICK), call(3, "list_windows")],
      [INIT, call(4, "list_windows")],
    );
    expect(seen[0]!.lines).toEqual([expect.stringContaining('"id":1,"result"'), null, null]);
    expect(seen[1]!.lines[1]).toMatch(/^\{"jsonrpc":"2.0","id":4,"result":\{"content":\[\{"text":"Found 1 windows:/);
    // the request behind the frozen call is read but never reached the replay's matcher; the new process is served
    expect(requests.map((e) => [e.outcome, (e.fault as { kind: string } | undefined)?.kind ?? null])).toEqual([
      ["faulted", "freeze"],
      ["unanswered", null],
      ["replayed", null],
    ]);
  }, 60_000);

  it("no_effect, session_expired, oversized and a late refusal, as JSON-RPC lines", async () => {
    const { seen, requests } = await replayMcp(
      {
        rules: [
          { match: { tool: "click" }, fault: { kind: "no_effect" } },
          { match: { tool: "list_windows", nth: 1 }, fault: { kind: "session_expired" } },
          { match: { tool: "get_window_state", nth: 4 }, fault: { kind: "oversized", bytes: 1_048_576 } },
          { match: { tool: "list_windows", nth: 2 }, fault: { kind: "refusal", code: "background_unavailable", delay: { ms: 300 } } },
        ],
      },
      [
        INIT,
        call(2, "get_window_state", LOOK),
        call(3, "click", CLICK),
        call(4, "get_window_state", LOOK), // the look from before the click
        call(5, "list_windows"), // the session expired
        call(6, "get_window_state", LOOK), // still expired
        call(7, "start_session", { session: "agent-1" }),
        call(8, "get_window_state", LOOK), // oversized
        call(9, "list_windows"), // a refusal, 300 ms late
      ],
    );
    const [s] = seen;
    const body = (line: string | null | undefined) => line!.replace(/^\{"jsonrpc":"2.0","id":\d+,/, "");
    // the look from before the click, under the new snapshot id the driver gives every read
    const screen = (line: string | null | undefined) => body(line).replace(/s[0-9a-f]{8}/g, "s");
    expect(screen(s!.lines[3])).toBe(screen(s!.lines[1]));
    expect(body(s!.lines[3])).not.toBe(body(s!.lines[1]));
    const refusal =
      '"result":{"content":[{"text":"this session has ended; call start_session explicitly to reuse its label","type":"text"}],"isError":true,"structuredContent":{"refusal":{"code":"session_ended","message":"this session has ended; call start_session explicitly to reuse its label"},"status":"refused"}}}';
    expect(body(s!.lines[4])).toBe(refusal);
    expect(body(s!.lines[5])).toBe(refusal);
    expect(s!.lines[6]).toMatch(/"id":7,"result":/);
    expect(Buffer.byteLength(s!.lines[7]!)).toBeGreaterThan(1_048_576);
    expect((JSON.parse(s!.lines[7]!) as { id: number }).id).toBe(8);
    expect(s!.lines[8]).toMatch(/"id":9,"result":.*"isError":true.*"code":"background_unavailable"/);
    expect(s!.waits_ms[8]).toBeGreaterThanOrEqual(300);
    expect(requests.map((e) => [(e.fault as { kind: string } | undefined)?.kind ?? null, e.synthesized ?? null])).toEqual([
      [null, null],
      ["no_effect", null],
      [null, "unchanged_screen"],
      ["session_expired", null],
      ["session_expired", null],
      [null, "lifecycle"],
      // the look read a third time: a fresh snapshot id, and the image padded past the limit
      ["oversized", "fresh_look"],
      ["refusal", null],
    ]);
  }, 60_000);
});

describe("field faults over HTTP (cua-contract serve --transport http)", () => {
  const TOKEN = "t".repeat(40);
  const post = (url: string, body: string, signal?: AbortSignal) =>
    fetch(url, { method: "POST", body, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, ...(signal ? { signal } : {}) });

  it("freeze leaves every request unanswered until start_session; stall delays; oversized is one long body", async () => {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          { match: { tool: "list_windows", nth: 2 }, fault: { kind: "freeze" } },
          { match: { tool: "list_windows", nth: 1 }, fault: { kind: "stall", ms: 250 } },
          { match: { tool: "get_window_state", nth: 1 }, fault: { kind: "oversized", bytes: 1_048_576 } },
        ],
      }),
    );
    await using s = await startServeHttpInProcess({ args: [CASSETTE, "--faults", plan], token: TOKEN });
    const started = Date.now();
    const late = await post(s.url, call(1, "list_windows"));
    expect(await late.text()).toMatch(/"id":1,"result":\{"content":\[\{"text":"Found 1 windows:/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const rebuilt = await post(s.url, call(2, "start_session", { session: "agent-1" }));
    expect(rebuilt.status).toBe(200);
    const big = await (await post(s.url, call(3, "get_window_state", LOOK))).text();
    expect(big.length).toBeGreaterThan(1_048_576);
    expect(big).not.toContain("\n");
    await expect(post(s.url, call(4, "list_windows"), AbortSignal.timeout(400))).rejects.toThrow(/abort|timeout/i);
    await expect(post(s.url, call(5, "get_window_state", LOOK), AbortSignal.timeout(400))).rejects.toThrow(/abort|timeout/i);
    const revived = await post(s.url, call(6, "start_session", { session: "agent-1" }));
    expect(await revived.text()).toMatch(/"id":6,"result":/);
    const after = Date.now();
    expect(await (await post(s.url, call(7, "list_windows"))).text()).toMatch(/"id":7,"result":/);
    expect(Date.now() - after).toBeLessThan(250);
  }, 60_000);
});
