import { cpSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

// The fake 0.21.0 driver answers from the shared reference data beside the repository.
const REFERENCE = path.resolve(repoRoot, "test/fixtures/reference/cua-driver");
const CLI_HARNESS = path.join(repoRoot, "test/e2e/replay/cli-harness.py");
const MCP_LINES = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
const SDK_CLIENT = path.join(repoRoot, "test/e2e/replay/sdk-client.mjs");
const TOKEN = JSON.stringify({ pid: 24132, window_id: 4194311, element_token: "s00000004:15" });

/** Record a harness against a copy of the fake driver, delete the driver, replay the same harness. */
async function recordThenReplay(command: (outFile: string) => string[]) {
  await using dir = await tmpDir();
  const drivers = path.join(dir.path, "drivers");
  cpSync(path.join(repoRoot, "test/fixtures/drivers"), drivers, { recursive: true });
  const rec = path.join(dir.path, "rec");
  const env = { CUA_CONTRACT_REFERENCE_DIR: REFERENCE };
  const recorded = await runCliInProcess(
    ["record", "--out", rec, "--driver", path.join(drivers, "cua-driver-0.21.0"), "--", ...command(path.join(dir.path, "rec.png"))],
    { env },
  );
  expect(recorded.exitCode, recorded.stderr).toBe(0);
  rmSync(drivers, { recursive: true, force: true });
  const replayed = await runCliInProcess(["replay", rec, "--fail-on-unused", "--json", "--", ...command(path.join(dir.path, "replay.png"))], { env });
  const lines = replayed.stdout.trim().split("\n");
  return {
    recorded: recorded.stdout.trim(),
    replayed: lines.slice(0, -1).join("\n"),
    summary: JSON.parse(lines.at(-1)!) as Record<string, unknown>,
    exitCode: replayed.exitCode,
    stderr: replayed.stderr,
  };
}

const withoutTimes = (text: string) => text.replace(/"elapsed_ms": \d+/g, '"elapsed_ms": 0');

describe.skipIf(!existsSync(REFERENCE))("record with the fake driver, then replay with the driver deleted", () => {
  it("a Python per-call harness sees the same bytes, exit codes and screenshot file", async () => {
    const steps = (shot: string) => [
      { argv: ["call", "get_screen_size", "{}"] },
      { argv: ["call", "list_windows", "{}"] },
      { argv: ["call", "click", TOKEN] },
      { argv: ["call", "get_desktop_state", "{}", "--screenshot-out-file", shot], out_file: shot },
      { argv: ["call", "get_desktop_state", "{}"] },
      { argv: ["call", "get_config", "{oops"] },
      { argv: ["call", "no_such_tool", "{}"] },
    ];
    const r = await recordThenReplay((shot) => ["python3", CLI_HARNESS, JSON.stringify(steps(shot))]);
    // every byte matches; the call of a tool the recording's probe does not list is still a traffic-invariant violation
    expect(r.exitCode, JSON.stringify(r.summary)).toBe(1);
    expect(withoutTimes(r.replayed)).toBe(withoutTimes(r.recorded));
    const seen = JSON.parse(r.replayed) as { exit: number; file_b64?: string; stdout: string }[];
    expect(seen.map((s) => s.exit)).toEqual([0, 0, 0, 0, 0, 2, 1]);
    expect(Buffer.from(seen[3]!.file_b64!, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(seen[4]!.stdout.length).toBeGreaterThan(10_000);
    expect(r.summary).toMatchObject({ served: 7, unmatched: 0, unused: 0, harnessExitCode: 0, exitCode: 1 });
    expect(r.summary.violations).toEqual([
      { id: "no-unknown-tools", message: "#6 no_such_tool {} calls no_such_tool, which the cassette's probe does not list", events: [6] },
    ]);
  });

  it("a raw MCP client sees the same lines", async () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"py","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_window_state","arguments":{"pid":24132,"window_id":4194311}}}',
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"click","arguments":${TOKEN}}}`,
      '{"jsonrpc":"2.0","id":5,"method":"ping"}',
    ];
    const r = await recordThenReplay(() => ["python3", MCP_LINES, JSON.stringify(lines)]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.replayed).toBe(r.recorded);
    expect((JSON.parse(r.replayed) as { lines: string[] }).lines).toHaveLength(5);
  });

  it("an MCP SDK client sees the same results", async () => {
    const calls = [
      ["list_windows", {}],
      ["get_window_state", { pid: 24132, window_id: 4194311 }],
      ["click", JSON.parse(TOKEN)],
    ];
    const r = await recordThenReplay(() => [process.execPath, SDK_CLIENT, JSON.stringify(calls)]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.replayed).toBe(r.recorded);
    const out = JSON.parse(r.replayed) as { tools: number; results: unknown[] };
    expect(out.tools).toBe(60);
    expect(out.results).toHaveLength(3);
  });
});
