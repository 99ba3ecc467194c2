// replay --record-missing with the real runtime on a throwaway desktop: a flow is recorded, the
// harness grows (a read before anything else, a read after a mutation, a read after another), the
// missing calls are recorded from a new desktop (new pids, snapshot numbers one ahead), and a plain
// replay of the grown harness on the grown cassette matches every request with the same verdicts.
// Skips with the standard skip when the desktop packages are missing (`npm run test:desktop`; the
// refusals, which need no desktop, are in record-missing-refusals.e2e.test.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { skipWithout } from "../helpers/system-packages.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const skip = await skipWithout("desktop", "replay --record-missing --desktop (real runtime under Xvfb)");
const harness = path.join(repoRoot, "test", "fixtures", "harnesses", "grow-flow.mjs");

// The growing runs stand for a developer's desktop, where CI is not set (a CI job refuses them: tested below).
const onDesktop = { env: { CI: "" } };
const harnessLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("harness: "));
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
const toolsOf = (dir: string) =>
  readFileSync(path.join(dir, "cassette.jsonl"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { argv: string[]; added?: { source: string } })
    .filter((e) => e.argv[0] === "call")
    .map((e) => `${e.argv[1]}${e.added ? `+${e.added.source}` : ""}`);

describe.skipIf(skip)("replay --record-missing --driver sdk --desktop (real runtime under Xvfb)", () => {
  it("grows a recorded flow with the calls a changed harness adds, and the grown cassette replays it with 0 unmatched", { timeout: 180_000 }, async () => {
    await using dir = await tmpDir();
    const cassette = path.join(dir.path, "rec");
    const recorded = await runCli(["record", "--driver", "sdk:0.21.0", "--desktop", "--no-probe", "--out", cassette, "--", process.execPath, harness, "base"]);
    expect(recorded.exitCode, String(recorded.stderr)).toBe(0);

    const grown = await runCli(
      ["replay", cassette, "--record-missing", "--driver", "sdk:0.21.0", "--desktop", "--json", "--", process.execPath, harness, "grown"],
      onDesktop,
    );
    expect(grown.exitCode, String(grown.stderr)).toBe(0);
    const summary = lastJson(String(grown.stdout));
    // 11 recorded requests served (--version and 10 calls), 3 added; the ids of the new desktop paired with the recorded ones
    expect(summary).toMatchObject({
      served: 11,
      added: 3,
      forwarded: 13,
      driver: { source: "sdk", version: "0.21.0", location: "sdk:@trycua/cua-driver@0.21.0" },
      harnessExitCode: 0,
      exitCode: 0,
    });
    expect(summary.divergence).toBeUndefined();
    expect(summary.ids as { pid: number; snapshot: number; fresh: number }).toMatchObject({ pid: 1, snapshot: 4, fresh: 1 });
    expect(toolsOf(cassette)).toEqual([
      "start_session",
      "get_screen_size+sdk",
      "list_windows",
      "get_window_state",
      "type_text",
      "get_window_state+sdk",
      "list_windows",
      "get_window_state",
      "click",
      "list_windows",
      "get_window_state",
      "get_screen_size+sdk",
      "end_session",
    ]);

    const replayed = await runCliInProcess(["replay", cassette, "--json", "--", process.execPath, harness, "grown"]);
    expect(replayed.exitCode, String(replayed.stderr)).toBe(0);
    expect(lastJson(String(replayed.stdout))).toMatchObject({ served: 14, unmatched: 0, synthesized: 0, violations: [], exitCode: 0 });
    // the harness saw the same thing in both runs: recorded pid and window, the added look's own snapshot id, every effect
    expect(harnessLines(String(replayed.stderr))).toEqual(harnessLines(String(grown.stderr)));
    expect(harnessLines(String(grown.stderr))).toContain(harnessLines(String(recorded.stderr)).find((l) => l.includes('"Application Class" of pid')));
    expect(harnessLines(String(grown.stderr)).find((l) => l.startsWith("harness: filtered"))).toMatch(/^harness: filtered s00000004: /);

    // the flow as recorded still replays, and a mutation the recording never made grows it again, after its epoch
    const old = await runCliInProcess(["replay", cassette, "--fail-on-unused", "--", process.execPath, harness, "base"]);
    expect(old.exitCode, String(old.stderr)).toBe(0);
    const diverged = await runCli(
      ["replay", cassette, "--record-missing", "--driver", "sdk", "--desktop", "--json", "--", process.execPath, harness, "diverged"],
      onDesktop,
    );
    expect(diverged.exitCode, String(diverged.stderr)).toBe(0);
    expect(lastJson(String(diverged.stdout))).toMatchObject({ added: 3, divergence: { dropped: 0 } });
    expect(toolsOf(cassette).slice(-4)).toEqual(["end_session", "set_window_frame+sdk", "list_windows+sdk", "end_session+sdk"]);
    const again = await runCliInProcess(["replay", cassette, "--json", "--", process.execPath, harness, "diverged"]);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(lastJson(String(again.stdout))).toMatchObject({ unmatched: 0, violations: [] });
    expect(harnessLines(String(again.stderr))).toEqual(harnessLines(String(diverged.stderr)));
    const header = JSON.parse(readFileSync(path.join(cassette, "cassette.jsonl"), "utf8").split("\n")[0]!) as {
      additions: { events: number; driver: { source: string } }[];
    };
    expect(header.additions.map((a) => [a.events, a.driver.source])).toEqual([
      [3, "sdk"],
      [3, "sdk"],
    ]);
  });
});

describe.skipIf(skip)("replay --record-missing over MCP stdio (real runtime under Xvfb)", () => {
  it("grows a recorded `cua-driver mcp` stream, and the grown cassette replays the changed harness line for line", { timeout: 120_000 }, async () => {
    await using dir = await tmpDir();
    const cassette = path.join(dir.path, "rec");
    const recorded = await runCli([
      "record",
      "--driver",
      "sdk:0.21.0",
      "--desktop",
      "--no-probe",
      "--out",
      cassette,
      "--",
      process.execPath,
      harness,
      "base",
      "mcp",
    ]);
    expect(recorded.exitCode, String(recorded.stderr)).toBe(0);
    const grown = await runCli(
      ["replay", cassette, "--record-missing", "--driver", "sdk:0.21.0", "--desktop", "--json", "--", process.execPath, harness, "grown", "mcp"],
      onDesktop,
    );
    expect(grown.exitCode, String(grown.stderr)).toBe(0);
    expect(lastJson(String(grown.stdout))).toMatchObject({ added: 3, driver: { source: "sdk" }, exitCode: 0 });
    const events = readFileSync(path.join(cassette, "cassette.jsonl"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { kind: string; dir?: string; line?: string; added?: unknown });
    const added = events.filter((e) => e.added);
    expect(added.map((e) => `${e.dir}:${/"name":"(\w+)"/.exec(e.line ?? "")?.[1] ?? "answer"}`)).toEqual([
      "c2s:get_screen_size",
      "s2c:answer",
      "c2s:get_window_state",
      "s2c:answer",
      "c2s:get_screen_size",
      "s2c:answer",
    ]);
    expect(events.at(-1)).toMatchObject({ kind: "mcp_close" });
    const replayed = await runCliInProcess(["replay", cassette, "--json", "--", process.execPath, harness, "grown", "mcp"]);
    expect(replayed.exitCode, String(replayed.stderr)).toBe(0);
    expect(lastJson(String(replayed.stdout))).toMatchObject({ unmatched: 0, violations: [], exitCode: 0 });
    expect(harnessLines(String(replayed.stderr))).toEqual(harnessLines(String(grown.stderr)));
  });
});
