import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";

const example = path.join(repoRoot, "examples/harness-python");
const cassette = path.join(repoRoot, "contracts/scenarios/cassettes/gtk3demo-click-timeout");
// A case found by `fuzz --cmd "python3 harness_buggy.py" --cassette … --seed 100 --runs 60`, shrunk:
// the recorded flow with the first click's output cut short (its outcome unknown).
const found = ["--cassette", cassette, "--seed", "103", "--runs", "1", "--path", "0:0:2", "--json"];

describe("fuzz --cmd (an external harness)", () => {
  it("replays the shrunk case that catches the harness re-sending a click whose output was cut short", async () => {
    const r = await runCliInProcess(["fuzz", "--cmd", "python3 harness_buggy.py", ...found], { cwd: example });
    expect(r.exitCode, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { failures: { invariant: string; case: { rules: unknown[] }; reproduce: string }[] };
    expect(doc.failures[0]!.invariant).toBe("no-replay-after-unknown");
    expect(doc.failures[0]!.case.rules).toEqual([{ match: { tool: "click", nth: 1 }, fault: { kind: "truncated" } }]);
    expect(doc.failures[0]!.reproduce).toContain("--cmd 'python3 harness_buggy.py'");
  });

  it("finds nothing wrong with the fail-closed harness on the same case", async () => {
    const r = await runCliInProcess(["fuzz", "--cmd", "python3 harness.py", ...found], { cwd: example });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).violations).toBe(0);
  });

  it("rejects --cmd with --mutants", async () => {
    const r = await runCliInProcess(["fuzz", "--cmd", "python3 harness.py", "--mutants"], { cwd: example });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--cmd names the harness; it cannot be combined with --harness or --mutants");
  });
});

describe("fuzz --cmd finds the fail-closed harness's twin that retargets after a stale refusal", () => {
  const example = path.join(repoRoot, "examples/fail-closed-python");
  it("catches it in a 20-run campaign, and the correct harness passes the same runs", { timeout: 120_000 }, async () => {
    const campaign = ["--cassette", "recordings/cli", "--runs", "20", "--seed", "50", "--env", "HARNESS_TIMEOUT_S=1", "--json"];
    const twin = await runCliInProcess(["fuzz", "--cmd", "python3 twins.py retarget --transport cli", ...campaign], { cwd: example });
    expect(twin.exitCode, twin.stderr).toBe(1);
    const doc = JSON.parse(twin.stdout) as { failures: { invariant: string; case: { rules: unknown[] } }[] };
    expect(doc.failures.map((f) => f.invariant)).toContain("no-input-after-stale");
    expect(doc.failures[0]!.case.rules).toEqual([{ match: { tool: "click", nth: 1 }, fault: { kind: "refusal", code: "stale_element_token" } }]);
    // four cases side by side, each with its own shim and replay session: the same findings
    const sideBySide = await runCliInProcess(["fuzz", "--cmd", "python3 twins.py retarget --transport cli", ...campaign, "--jobs", "4"], { cwd: example });
    expect(sideBySide.exitCode, sideBySide.stderr).toBe(1);
    expect(sideBySide.stdout).toBe(twin.stdout);
    const correct = await runCliInProcess(["fuzz", "--cmd", "python3 harness.py --transport cli", ...campaign, "--jobs", "4"], { cwd: example });
    expect(correct.exitCode, correct.stdout).toBe(0);
    expect(JSON.parse(correct.stdout).violations).toBe(0);
  });
});
