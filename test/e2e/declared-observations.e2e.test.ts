import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PRESS, replayPython, TOKEN } from "../helpers/replay-cli-harness.js";
import { tmpDir } from "../helpers/tmp-dir.js";

// A harness that reads the world through its own channel (a game's state, its own screenshot)
// says so with one line in the file CUA_CONTRACT_OBSERVE names; the replay logs it and the
// invariants count it as a fresh observation.
describe("declared observations over the per-call CLI", () => {
  async function run(steps: unknown[]) {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    const log = path.join(dir.path, "log.jsonl");
    writeFileSync(plan, JSON.stringify({ rules: [{ match: { tool: "press_key", nth: 1 }, fault: { kind: "hang" } }] }));
    const out = await replayPython({ steps, extra: ["--faults", plan, "--log", log] });
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; before?: number; note?: string; n?: number });
    return { ...out, entries };
  }
  // the recording clicks, then presses escape: the first press hangs
  const click = { argv: ["call", "click", TOKEN] };
  const press = { argv: ["call", "press_key", PRESS], timeout: 1 };

  it("a press re-sent after a hang without a look is one violation for the cause, counting the later one", async () => {
    const { summary, result } = await run([click, press, press, press]);
    const violations = summary.violations as { id: string; message: string; events: number[] }[];
    // the recording refused the press (background_unavailable): re-sent unchanged, that is a finding too
    expect(violations.map((v) => v.id)).toEqual(["no-replay-after-unknown", "retry-read-only-only", "no-resend-after-refusal"]);
    expect(violations[0]?.message).toMatch(/#2 press_key .* re-sends #1 press_key .*hang.*; #3 press_key .* did the same/);
    expect(violations[0]?.events).toEqual([1, 2, 3]);
    expect(result.exitCode).toBe(1);
  });

  it("a look the harness declared between the presses clears it, and the log shows where it stood", async () => {
    const { summary, entries, result } = await run([click, press, { observe: "read the game board" }, press]);
    expect(summary.violations).toEqual([]);
    expect(result.exitCode).toBe(0);
    const observation = entries.find((e) => e.type === "observation");
    expect(observation).toMatchObject({ type: "observation", before: 2, source: "declared", note: "read the game board" });
    const order = entries.filter((e) => e.type === "request" || e.type === "observation").map((e) => (e.type === "request" ? `#${e.n}` : "look"));
    expect(order).toEqual(["#0", "#1", "look", "#2"]);
  });
});
