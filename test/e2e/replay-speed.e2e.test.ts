import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { execa } from "execa";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CASSETTE, HARNESS, type Seen } from "../helpers/replay-cli-harness.js";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { startServeHttpInProcess } from "../helpers/serve-http.js";
import { tmpDir } from "../helpers/tmp-dir.js";

describe("replay --speed recorded (per-call CLI)", () => {
  it("answers each call after its recorded duration; the default answers at once", async () => {
    await using dir = await tmpDir();
    const slow = path.join(dir.path, "slow");
    cpSync(CASSETTE, slow, { recursive: true });
    const file = path.join(slow, "cassette.jsonl");
    // the recorded get_screen_size took 1.2 s
    writeFileSync(file, readFileSync(file, "utf8").replace('{"seq":1,"t_ms":40,"duration_ms":12,', '{"seq":1,"t_ms":40,"duration_ms":1200,'));
    const steps = JSON.stringify([{ argv: ["call", "get_screen_size"] }]);
    const run = async (extra: string[]) => {
      const r = await runCliInProcess(["replay", slow, ...extra, "--", "python3", HARNESS, steps]);
      expect(r.exitCode, r.stderr).toBe(0);
      return (JSON.parse(r.stdout.trim().split("\n")[0]!) as Seen[])[0]!;
    };
    const recorded = await run(["--speed", "recorded"]);
    expect(recorded.exit).toBe(0);
    expect(recorded.elapsed_ms).toBeGreaterThanOrEqual(1200);
    const fast = await run([]);
    expect(fast.stdout).toBe(recorded.stdout);
    expect(fast.elapsed_ms).toBeLessThan(1200);
  });
});

describe("replay --speed recorded (cua-driver mcp)", () => {
  it("sends each answer line after the request's recorded duration, in order, before the process ends", async () => {
    await using dir = await tmpDir();
    const slow = path.join(dir.path, "slow");
    cpSync(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"), slow, { recursive: true });
    const file = path.join(slow, "cassette.jsonl");
    // list_windows (id 3) asked at t=35 and answered at t=1235: a 1.2 s call
    writeFileSync(file, readFileSync(file, "utf8").replace('{"seq":7,"t_ms":40,', '{"seq":7,"t_ms":1235,'));
    const init =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}';
    const lines = JSON.stringify([init, '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}']);
    const client = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
    const timed = async (extra: string[]) => {
      const started = performance.now();
      const r = await runCliInProcess(["replay", slow, "--invariants", "none", ...extra, "--", "python3", client, lines], { env: { MCP_LINES_WAITS: "1" } });
      expect(r.exitCode, r.stderr).toBe(0);
      return { ms: performance.now() - started, seen: JSON.parse(r.stdout.trim().split("\n")[0]!) as { lines: (string | null)[]; waits_ms: number[] } };
    };
    const fast = await timed([]);
    const recorded = await timed(["--speed", "recorded"]);
    expect(recorded.seen.lines).toEqual(fast.seen.lines);
    expect(recorded.seen.lines[1]).toContain('"id":3,"result"');
    // what the client waited for the list_windows answer: the recorded 1.2 s, against an answer at once
    expect(recorded.seen.waits_ms[1]).toBeGreaterThanOrEqual(1150);
    expect(fast.seen.waits_ms[1]).toBeLessThan(recorded.seen.waits_ms[1]! - 600);
  });
});

describe("serve --speed recorded (MCP over HTTP and stdio)", () => {
  const TOKEN = "t".repeat(40);
  const slowCassette = async (dir: string) => {
    const slow = path.join(dir, "slow");
    cpSync(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"), slow, { recursive: true });
    const file = path.join(slow, "cassette.jsonl");
    // list_windows asked at t=35 and answered at t=1235: a 1.2 s call
    writeFileSync(file, readFileSync(file, "utf8").replace('{"seq":7,"t_ms":40,', '{"seq":7,"t_ms":1235,'));
    return slow;
  };
  const listWindows = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}';

  it("answers each HTTP request after its recorded duration, with the same bytes as at full speed", async () => {
    await using dir = await tmpDir();
    const slow = await slowCassette(dir.path);
    const timed = async (extra: string[]) => {
      await using serve = await startServeHttpInProcess({ args: [slow, ...extra], token: TOKEN });
      const started = performance.now();
      const res = await fetch(serve.url, {
        method: "POST",
        body: listWindows,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      });
      const text = await res.text();
      return { ms: performance.now() - started, text };
    };
    const fast = await timed([]);
    const recorded = await timed(["--speed", "recorded"]);
    expect(recorded.text).toBe(fast.text);
    expect(recorded.text).toContain('"id":3,"result"');
    expect(fast.ms).toBeLessThan(1000);
    expect(recorded.ms).toBeGreaterThan(1150);
  });

  it("paces serve --transport mcp the way replay paces cua-driver mcp", async () => {
    await using dir = await tmpDir();
    const slow = await slowCassette(dir.path);
    const init =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}';
    const client = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
    // the client drives the stand-in as a harness drives `cua-driver mcp`, timing each answer
    const timed = async (extra: string[]) => {
      const r = await execa(
        "python3",
        [client, JSON.stringify([init, listWindows]), process.execPath, cliPath, "serve", slow, "--transport", "mcp", ...extra],
        {
          env: { MCP_LINES_WAITS: "1" },
          reject: false,
        },
      );
      return JSON.parse(r.stdout) as { lines: (string | null)[]; waits_ms: number[] };
    };
    const fast = await timed([]);
    const recorded = await timed(["--speed", "recorded"]);
    expect(recorded.lines).toEqual(fast.lines);
    expect(recorded.lines[1]).toContain('"id":3,"result"');
    expect(recorded.waits_ms[1]).toBeGreaterThanOrEqual(1150);
    expect(fast.waits_ms[1]).toBeLessThan(recorded.waits_ms[1]! - 600);
  });
});
