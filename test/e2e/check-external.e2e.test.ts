import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";

const example = path.join(repoRoot, "examples/harness-python");
const scenario = (name: string) => path.join(repoRoot, "contracts/scenarios", `${name}.json`);
const env = { HARNESS_TIMEOUT_S: "1", NO_COLOR: "1" };

// The invariants judge a harness in any language: a per-call Python harness behind the replaying shim.
describe("an external harness (examples/harness-python)", () => {
  it("check --cmd passes the fail-closed harness on the timeout and daemon-death scenarios", async () => {
    const r = await runCliInProcess(
      ["check", "--cmd", "python3 harness.py", scenario("click-timeout-after-effect"), scenario("daemon-died-midcall"), scenario("list-windows-empty")],
      { cwd: example, env },
    );
    expect(r.stdout).toContain("3 of 3 scenarios passed with the external (python3 harness.py) harness");
    expect(r.exitCode).toBe(0);
  });

  it("check --cmd fails the harness that re-sends a timed-out click, naming the invariants", async () => {
    const r = await runCliInProcess(["check", "--json", "--cmd", "python3 harness_buggy.py", scenario("click-timeout-after-effect")], { cwd: example, env });
    expect(r.exitCode).toBe(1);
    const result = JSON.parse(r.stdout) as { scenarios: { exit_code: number; failures: { kind: string; invariant?: string }[] }[] };
    const failures = result.scenarios[0]!.failures;
    expect(result.scenarios[0]!.exit_code).toBe(0);
    // the blind re-send reached a later state where its token was stale: the driver refused it, so it
    // acted on nothing and rebuild-before-mutation has nothing to charge; the re-send itself is the bug
    expect(failures.filter((f) => f.kind === "invariant").map((f) => f.invariant)).toEqual(["no-replay-after-unknown", "retry-read-only-only"]);
  });

  it("replay -- python3 harness_buggy.py exits 1 with the violation and its evidence; --invariants picks, --no-invariants skips", async () => {
    const cassette = path.join(repoRoot, "recordings/gtk3-demo-mcp");
    const plan = path.join(example, "timeout-after-click.json");
    const good = await runCliInProcess(["replay", cassette, "--faults", plan, "--", "python3", "harness.py", scenario("click-timeout-after-effect")], {
      cwd: example,
      env,
    });
    expect(good.exitCode, good.stderr).toBe(0);
    const bad = await runCliInProcess(["replay", cassette, "--faults", plan, "--", "python3", "harness_buggy.py", scenario("click-timeout-after-effect")], {
      cwd: example,
      env,
    });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/violation no-replay-after-unknown: #\d+ click .* re-sends #\d+ click .*timeout_after_effect/);
    const chosen = await runCliInProcess(
      [
        "replay",
        cassette,
        "--faults",
        plan,
        "--invariants",
        "bounded-retries,retry-read-only-only",
        "--",
        "python3",
        "harness_buggy.py",
        scenario("click-timeout-after-effect"),
      ],
      { cwd: example, env },
    );
    expect(chosen.stderr).toMatch(/violation retry-read-only-only:/);
    expect(chosen.stderr).not.toMatch(/violation no-replay-after-unknown/);
    const none = await runCliInProcess(
      ["replay", cassette, "--faults", plan, "--no-invariants", "--", "python3", "harness_buggy.py", scenario("click-timeout-after-effect")],
      { cwd: example, env },
    );
    expect(none.stderr).not.toMatch(/violation /);
  });
});
