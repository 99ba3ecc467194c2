import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CASSETTE, HARNESS, PRESS, replayPython, TOKEN } from "../helpers/replay-cli-harness.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

// One harness run, every fault kind the per-call CLI can show, each on its own nth call.
describe("fault injection on the per-call CLI", () => {
  it("renders every fault kind as cua-driver's CLI shows it", async () => {
    await using dir = await tmpDir();
    const home = path.join(dir.path, "home");
    const sock = `${home}/.cache/cua-driver/cua-driver.sock`;
    const plan = path.join(dir.path, "plan.json");
    const log = path.join(dir.path, "log.jsonl");
    const shot = path.join(dir.path, "shot.png");
    const size = (fault: object, nth: number) => ({ match: { tool: "get_screen_size", nth }, fault });
    writeFileSync(
      plan,
      JSON.stringify({
        rules: [
          size({ kind: "daemon_down" }, 1),
          size({ kind: "daemon_died_midcall" }, 2),
          size({ kind: "exit", code: 3, stderr: "boom\n" }, 3),
          size({ kind: "delay", ms: 400 }, 4),
          size({ kind: "hang" }, 5),
          size({ kind: "truncated" }, 6),
          { match: { tool: "list_windows", nth: 1 }, fault: { kind: "empty" } },
          { match: { tool: "click", nth: 1 }, fault: { kind: "timeout_before_effect" } },
          { match: { tool: "click", nth: 2 }, fault: { kind: "refusal", code: "stale_element_token" } },
          { match: { tool: "click", nth: 3 }, fault: { kind: "timeout_after_effect" } },
          { match: { tool: "get_desktop_state", nth: 1 }, fault: { kind: "corrupt_image" } },
          { match: { tool: "get_desktop_state", nth: 2 }, fault: { kind: "corrupt_image" } },
        ],
      }),
    );
    const steps = [
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "get_screen_size"], timeout: 1 },
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "list_windows"] },
      { argv: ["call", "click", TOKEN], timeout: 1 },
      { argv: ["call", "click", TOKEN] },
      { argv: ["call", "click", TOKEN], timeout: 1 },
      // the injected stale refusal made the token's look stale: the driver refuses the third click too
      // (so it never ran), and the next recorded mutation answers after it
      { argv: ["call", "press_key", PRESS] },
      { argv: ["call", "get_desktop_state"] },
      { argv: ["call", "get_desktop_state", "--screenshot-out-file", shot], out_file: shot },
    ];
    const { seen, summary } = await replayPython({ steps, extra: ["--faults", plan, "--log", log, "--invariants", "none"], env: { HOME: home } });
    const normal = '{\n  "height": 800,\n  "scale_factor": 1.0,\n  "width": 1280\n}\n';
    expect(seen[0]).toMatchObject({
      exit: 1,
      stdout: "",
      stderr: `Cua Driver daemon is not running on ${sock}.\nStart it first with: cua-driver serve --socket ${sock}\n`,
    });
    expect(seen[1]).toMatchObject({ exit: 1, stdout: "", stderr: `Cua Driver daemon request on ${sock} failed: daemon closed connection without response\n` });
    expect(seen[2]).toMatchObject({ exit: 3, stdout: "", stderr: "boom\n" });
    expect(seen[3]).toMatchObject({ exit: 0, stdout: normal });
    expect(seen[3]!.elapsed_ms).toBeGreaterThanOrEqual(400);
    expect(seen[4]).toMatchObject({ timeout: true });
    expect(seen[4]!.elapsed_ms).toBeGreaterThanOrEqual(1000);
    expect(seen[5]!.exit).toBe(0);
    expect(normal.startsWith(seen[5]!.stdout!)).toBe(true);
    expect(seen[5]!.stdout!.length).toBeLessThan(normal.length);
    expect(() => JSON.parse(seen[5]!.stdout!)).toThrow();
    expect(seen[6]).toMatchObject({ exit: 0, stdout: normal }); // no rule left: the recording again
    expect(seen[7]).toMatchObject({ exit: 0, stdout: '{\n  "windows": []\n}\n' });
    expect(seen[8]).toMatchObject({ timeout: true });
    expect(seen[9]!.exit).toBe(0); // a refusal exits 0, JSON on stdout
    expect(JSON.parse(seen[9]!.stdout!)).toEqual({
      refusal: { code: "stale_element_token", message: "element_token is stale; call get_window_state again to refresh" },
      status: "refused",
    });
    expect(seen[10]).toMatchObject({ timeout: true });
    expect(seen[11]!.exit).toBe(0);
    expect(JSON.parse(seen[11]!.stdout!).code).toBe("background_unavailable");
    const merged = JSON.parse(seen[12]!.stdout!) as { screenshot_png_b64: string };
    const real = readFileSync(path.join(CASSETTE, "frames", "ebc1a12310fa96efae931acb75771ee38856cfb70a921e7fb5bfa34128a9262b.png"));
    const corrupted = Buffer.from(merged.screenshot_png_b64, "base64");
    expect(corrupted.length).toBe(real.length);
    expect(corrupted.equals(real)).toBe(false);
    expect(corrupted.subarray(0, 8).equals(real.subarray(0, 8))).toBe(true);
    const file = Buffer.from(seen[13]!.file_b64!, "base64");
    expect(file.length).toBe(real.length);
    expect(file.equals(real)).toBe(false);
    expect(summary).toMatchObject({ unmatched: 0, faults: 12, unused: 1, exitCode: 0 });
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = entries.filter((e) => e.type === "request");
    expect(requests.map((e) => (e.fault as { kind?: string } | undefined)?.kind ?? null)).toEqual([
      "daemon_down",
      "daemon_died_midcall",
      "exit",
      "delay",
      "hang",
      "truncated",
      null,
      "empty",
      "timeout_before_effect",
      "refusal",
      "timeout_after_effect",
      null,
      "corrupt_image",
      "corrupt_image",
    ]);
    expect(requests.slice(8, 12).map((e) => [e.epoch_before, e.epoch_after])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      // skipped ahead to the recorded press_key, which the driver refused (background_unavailable): the state is the one after the click
      [0, 1],
    ]);
    expect(requests.slice(10, 12).map((e) => e.synthesized)).toEqual(["stale_element_token", "skipped_ahead"]);
    expect(entries.at(-1)).toMatchObject({ type: "summary", faults: 12, unmatched: 0 });
  }, 60_000);
});

describe("determinism through the CLI shim", () => {
  it("gives identical logs (times aside) for the same plan and seed", async () => {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    writeFileSync(plan, JSON.stringify({ rules: [{ match: { kind: "read", probability: 0.5 }, fault: { kind: "empty" } }] }));
    const steps = Array.from({ length: 6 }, () => ({ argv: ["call", "list_windows"] }));
    const run = async (seed: number, n: number) => {
      const log = path.join(dir.path, `log-${n}.jsonl`);
      await runCliInProcess([
        "replay",
        CASSETTE,
        "--faults",
        plan,
        "--seed",
        String(seed),
        "--log",
        log,
        "--invariants",
        "none",
        "--",
        "python3",
        HARNESS,
        JSON.stringify(steps),
      ]);
      return readFileSync(log, "utf8").replace(/"(t_ms|duration_ms)":\d+(\.\d+)?/g, '"$1":0');
    };
    const first = await run(7, 1);
    expect(await run(7, 2)).toBe(first);
    expect(first).toContain('"fault":{"kind":"empty"');
    expect(first).toMatch(/"outcome":"replayed"/);
  }, 30_000);
});
