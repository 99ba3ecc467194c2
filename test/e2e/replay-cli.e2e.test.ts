import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine } from "#src/replay/engine/engine.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { CASSETTE, PRESS, replayPython, TOKEN } from "../helpers/replay-cli-harness.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

/** The recorded CLI answers, frames put back: what the driver printed when recording. */
function recorded() {
  const cassette = loadReplayCassette(CASSETTE);
  return createEngine({ events: cassette.events, frame: cassette.frame! }).exchanges;
}

describe("cua-contract replay (per-call CLI)", () => {
  it("serves a Python harness the recorded bytes, exit codes and out-file, never a real driver", async () => {
    await using dir = await tmpDir();
    // a cua-driver later on PATH that would leave a mark if replay ever reached it
    const poison = path.join(dir.path, "bin");
    const marker = path.join(dir.path, "REAL-DRIVER-WAS-CALLED");
    await import("node:fs/promises").then((fs) => fs.mkdir(poison));
    writeFileSync(path.join(poison, "cua-driver"), `#!/bin/sh\ntouch ${marker}\necho real\n`);
    chmodSync(path.join(poison, "cua-driver"), 0o755);
    const outFile = path.join(dir.path, "shot.png");
    const { result, seen, summary } = await replayPython({
      env: { PATH: `${poison}:${process.env.PATH}` },
      steps: [
        { argv: ["--version"] },
        { argv: ["call", "get_screen_size"] },
        { argv: ["get_screen_size"] }, // implicit call
        { argv: ["call", "list_windows"] },
        { argv: ["call", "click", TOKEN] },
        { argv: ["call", "press_key", PRESS] },
        { argv: ["call", "get_desktop_state"] },
        { argv: ["call", "get_desktop_state", "--screenshot-out-file", outFile], out_file: outFile },
        { argv: ["call", "get_config", "{not json"] },
      ],
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const x = recorded();
    const out = (seq: number) => x.find((e) => e.seq === seq)!.cli!;
    expect(seen[0]).toMatchObject({ exit: 0, stdout: "cua-driver 0.21.0\n", stderr: "" });
    expect(seen[1]).toMatchObject({ exit: 0, stdout: out(1).stdout, stderr: "" });
    expect(seen[1]!.stdout).toBe('{\n  "height": 800,\n  "scale_factor": 1.0,\n  "width": 1280\n}\n');
    expect(seen[2]!.stdout).toBe(seen[1]!.stdout);
    expect(seen[3]).toMatchObject({ exit: 0, stdout: out(2).stdout });
    expect(seen[4]).toMatchObject({ exit: 0, stdout: out(3).stdout });
    expect(seen[5]).toMatchObject({ exit: 0, stdout: out(4).stdout }); // a refusal exits 0
    expect(seen[6]).toMatchObject({ exit: 0, stdout: out(5).stdout });
    expect((seen[6]!.stdout ?? "").length).toBeGreaterThan(60_000);
    expect(seen[7]).toMatchObject({ exit: 0, stdout: out(6).stdout });
    const frame = readFileSync(path.join(CASSETTE, x.find((e) => e.seq === 6)!.cli!.files!["--screenshot-out-file"]!.ref));
    expect(Buffer.from(seen[7]!.file_b64!, "base64").equals(frame)).toBe(true);
    expect(seen[8]).toMatchObject({ exit: 2, stdout: "", stderr: out(7).stderr });
    expect(existsSync(marker)).toBe(false);
    expect(summary).toMatchObject({ served: 9, unmatched: 0, faults: 0, unused: 0, violations: [], exitCode: 0 });
  });

  it("fails loudly on an unmatched call, names the nearest request and path, and exits 1", async () => {
    const { result, seen, summary } = await replayPython({
      steps: [{ argv: ["call", "click", JSON.stringify({ pid: 24132, window_id: 4194311, element_token: "s00000004:99" })] }],
    });
    expect(seen[0]).toMatchObject({ exit: 1, stdout: "" });
    expect(seen[0]!.stderr).toContain("no recorded answer for call #0 (click)");
    expect(result.stderr).toContain(
      `cua-contract replay: UNMATCHED: Failed to replay call #0 (click) from ${path.join(CASSETTE, "cassette.jsonl")}: no recorded request matches (differs from #3 (click) at $.element_token: "s00000004:99" ≠ recorded "s00000004:15"). Ignore the field with --ignore element_token, or re-record the cassette with this harness.`,
    );
    expect(summary).toMatchObject({ unmatched: 1, exitCode: 1 });
    expect(result.exitCode).toBe(1);
    // ignoring the field makes it match
    const ignored = await replayPython({
      extra: ["--ignore", "element_token"],
      steps: [{ argv: ["call", "click", JSON.stringify({ pid: 24132, window_id: 4194311, element_token: "s00000004:99" })] }],
    });
    expect(ignored.summary).toMatchObject({ unmatched: 0, exitCode: 0 });
  });

  it("refuses a tool the driver does not list as the driver does (permission denied, exit 1) and no-unknown-tools fails the run", async () => {
    const { result, seen, summary } = await replayPython({ steps: [{ argv: ["call", "frobnicate", "{}"] }, { argv: ["frobnicate", "{}"] }] });
    for (const s of seen) {
      expect(s).toMatchObject({ exit: 1, stdout: "", stderr: "Permission denied: tool 'frobnicate' has no reviewed risk classification\n" });
    }
    expect(result.stderr).not.toContain("UNMATCHED");
    expect(summary).toMatchObject({ unmatched: 0, exitCode: 1 });
    // the second call is the first again (the CLI's `call` is implied); an error without a refusal
    // code is what a test suite provokes on purpose: no-resend-after-refusal reads coded refusals only
    expect((summary.violations as { id: string }[]).map((v) => v.id)).toEqual(["no-unknown-tools"]);
    expect(result.exitCode).toBe(1);
  });

  it("passes the harness's own failing exit code through, and --fail-on-unused fails on unused mutations", async () => {
    const failing = await runCliInProcess(["replay", CASSETTE, "--", "sh", "-c", "exit 7"]);
    expect(failing.exitCode).toBe(7);
    const unused = await runCliInProcess([
      "replay",
      CASSETTE,
      "--fail-on-unused",
      "--json",
      "--",
      "sh",
      "-c",
      "cua-driver call get_screen_size </dev/null >/dev/null",
    ]);
    expect(JSON.parse(unused.stdout)).toMatchObject({ unused: 2, exitCode: 1 });
    expect(unused.exitCode).toBe(1);
  });

  it("rejects a bad fault plan with exit 2 naming the field and the valid kinds", async () => {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    writeFileSync(plan, JSON.stringify({ rules: [{ match: { tool: "click" }, fault: { kind: "meteor" } }] }));
    const r = await runCliInProcess(["replay", CASSETTE, "--faults", plan, "--", "true"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${plan}: rules[0].fault.kind: unknown fault kind "meteor". Valid kinds: hang, delay,`);
    writeFileSync(plan, JSON.stringify({ rules: [{ match: { nth: 1, when: "now" }, fault: { kind: "hang" } }] }));
    const r2 = await runCliInProcess(["replay", CASSETTE, "--faults", plan, "--", "true"]);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr).toContain('rules[0].match.when: unknown match key "when". Valid match keys: tool, kind, nth, every, probability.');
    const missing = await runCliInProcess(["replay", path.join(dir.path, "nope"), "--", "true"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`no cassette directory at ${path.join(dir.path, "nope")}`);
    const noCommand = await runCliInProcess(["replay", CASSETTE]);
    expect(noCommand.exitCode).toBe(2);
    expect(noCommand.stderr).toContain("no harness command after `--`");
  });
});
