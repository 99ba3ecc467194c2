import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CASSETTE, PRESS, replayPython, TOKEN } from "../helpers/replay-cli-harness.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const START = JSON.stringify({ session: "agent-1" });
const NAMED = JSON.stringify({ session: "agent-1" });

// The field faults through the real per-call CLI shim, as a Python harness sees them.
describe("field faults on the per-call CLI", () => {
  it("stall, freeze, session_expired, oversized and a late refusal, as cua-driver's CLI shows them", async () => {
    await using dir = await tmpDir();
    const home = path.join(dir.path, "home");
    const plan = path.join(dir.path, "plan.json");
    const log = path.join(dir.path, "log.jsonl");
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          { match: { tool: "get_screen_size", nth: 1 }, fault: { kind: "stall", ms: 300 } },
          { match: { tool: "get_desktop_state", nth: 3 }, fault: { kind: "freeze" } },
          { match: { tool: "list_windows", nth: 1 }, fault: { kind: "session_expired" } },
          { match: { tool: "get_desktop_state", nth: 1 }, fault: { kind: "oversized", bytes: 1_048_576 } },
          { match: { tool: "get_desktop_state", nth: 2 }, fault: { kind: "refusal", code: "background_unavailable", delay: { ms: 400 } } },
        ],
      }),
    );
    const steps = [
      { argv: ["call", "get_screen_size"] }, // 0 stall starts: late
      { argv: ["call", "get_screen_size"] }, // 1 still late
      { argv: ["call", "start_session", START] }, // 2 rebuild
      { argv: ["call", "get_screen_size"] }, // 3 on time again
      { argv: ["call", "list_windows", NAMED] }, // 4 the named session expired
      { argv: ["call", "list_windows", NAMED] }, // 5 still expired
      { argv: ["call", "start_session", START] }, // 6 revived
      { argv: ["call", "click", TOKEN] }, // 7
      { argv: ["call", "press_key", PRESS] }, // 8
      { argv: ["call", "get_desktop_state"] }, // 9 oversized
      { argv: ["call", "get_desktop_state"] }, // 10 a late refusal
      { argv: ["call", "get_desktop_state"], timeout: 1 }, // 11 freeze: no answer
      { argv: ["call", "get_screen_size"], timeout: 1 }, // 12 nothing answers
      { argv: ["call", "start_session", START] }, // 13 rebuild
      { argv: ["call", "get_screen_size"] }, // 14 answered again
    ];
    const { seen, summary } = await replayPython({
      steps,
      extra: ["--faults", plan, "--log", log, "--invariants", "none", "--ignore", "session"],
      env: { HOME: home },
    });
    const normal = '{\n  "height": 800,\n  "scale_factor": 1.0,\n  "width": 1280\n}\n';
    expect(seen[0]).toMatchObject({ exit: 0, stdout: normal });
    expect(seen[0]!.elapsed_ms).toBeGreaterThanOrEqual(300);
    expect(seen[1]).toMatchObject({ exit: 0, stdout: normal });
    expect(seen[1]!.elapsed_ms).toBeGreaterThanOrEqual(300);
    expect(seen[2]!.exit).toBe(0);
    expect(seen[3]).toMatchObject({ exit: 0, stdout: normal });
    const guard =
      "session 'agent-1' has ended; tool call 'list_windows' was rejected. Call start_session with this id to revive it before issuing further actions, or use a new session id.\n";
    expect(seen[4]).toMatchObject({ exit: 1, stdout: "", stderr: guard });
    expect(seen[5]).toMatchObject({ exit: 1, stdout: "", stderr: guard });
    expect(seen[6]!.exit).toBe(0);
    expect(seen.slice(7, 9).map((x) => x.exit)).toEqual([0, 0]);
    const big = seen[9]!;
    expect(big.exit).toBe(0);
    expect(Math.max(...big.stdout!.split("\n").map((l) => Buffer.byteLength(l)))).toBeGreaterThan(1_048_576);
    const shot = Buffer.from((JSON.parse(big.stdout!) as { screenshot_png_b64: string }).screenshot_png_b64, "base64");
    const real = readFileSync(path.join(CASSETTE, "frames", "ebc1a12310fa96efae931acb75771ee38856cfb70a921e7fb5bfa34128a9262b.png"));
    // the same PNG with an ancillary chunk before IEND: same header and pixels, same ending
    expect(shot.subarray(0, 33).equals(real.subarray(0, 33))).toBe(true);
    expect(shot.subarray(-12).equals(real.subarray(-12))).toBe(true);
    expect(shot.includes(Buffer.from("tEXtComment\0"))).toBe(true);
    expect(seen[10]!.exit).toBe(0);
    expect(JSON.parse(seen[10]!.stdout!).code).toBe("background_unavailable");
    expect(seen[10]!.elapsed_ms).toBeGreaterThanOrEqual(400);
    expect(seen[11]).toMatchObject({ timeout: true });
    expect(seen[12]).toMatchObject({ timeout: true });
    expect(seen[13]!.exit).toBe(0);
    expect(seen[14]).toMatchObject({ exit: 0, stdout: normal });
    expect(summary).toMatchObject({ unmatched: 0 });
    const requests = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.type === "request");
    expect(requests.map((e) => (e.fault as { kind?: string } | undefined)?.kind ?? null)).toEqual([
      "stall",
      "stall",
      null,
      null,
      "session_expired",
      "session_expired",
      null,
      null,
      null,
      "oversized",
      "refusal",
      "freeze",
      "freeze",
      null,
      null,
    ]);
  }, 60_000);

  it("--faults profile:NAME runs a named profile; an unknown one exits 2 listing them", async () => {
    const bad = await runCliInProcess(["replay", CASSETTE, "--faults", "profile:nope", "--", "true"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/unknown fault profile "nope"/);
    expect(bad.stderr).toMatch(/osworld-stall, osworld-no-effect, osworld-late-refusal, osworld-freeze, sdk-buffer, idle-session, osworld/);
    const help = await runCliInProcess(["replay", "--help"]);
    expect(help.stdout).toMatch(/profile:NAME/);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(/osworld-stall, osworld-no-effect/);
    const { seen, summary } = await replayPython({
      steps: [{ argv: ["call", "click", TOKEN] }, { argv: ["call", "press_key", PRESS] }, { argv: ["call", "get_desktop_state"] }],
      extra: ["--faults", "profile:sdk-buffer", "--invariants", "none"],
    });
    expect(Math.max(...seen[2]!.stdout!.split("\n").map((l) => l.length))).toBeGreaterThan(1_048_576);
    expect(summary).toMatchObject({ faults: 1 });
  }, 60_000);
});
