import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CASSETTE, HARNESS, type Seen } from "../helpers/replay-cli-harness.js";
import { runCli } from "../helpers/run-cli.js";
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
      const r = await runCli(["replay", slow, ...extra, "--", "python3", HARNESS, steps]);
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
