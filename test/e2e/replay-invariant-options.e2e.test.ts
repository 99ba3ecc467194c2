import { describe, expect, it } from "vitest";
import { CASSETTE } from "../helpers/replay-cli-harness.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";

// bounded-retries reads the answers; the pure count is a policy the user opts into.
describe("replay --max-identical / --max-repeats", () => {
  const thrice = ["sh", "-c", "for i in 1 2 3; do cua-driver call get_screen_size </dev/null >/dev/null; done"];
  it("three identical answered reads pass by default and fail under --max-identical 2", async () => {
    const plain = await runCliInProcess(["replay", CASSETTE, "--json", "--", ...thrice]);
    expect(JSON.parse(plain.stdout.trim().split("\n").at(-1)!).violations).toEqual([]);
    const policy = await runCliInProcess(["replay", CASSETTE, "--max-identical", "2", "--json", "--", ...thrice]);
    const violations = JSON.parse(policy.stdout.trim().split("\n").at(-1)!).violations as { id: string; message: string }[];
    expect(violations.map((v) => v.id)).toEqual(["bounded-retries"]);
    expect(violations[0]?.message).toMatch(
      /#2 get_screen_size .* 3rd identical get_screen_size call in a row \(from #0\); the maxIdentical policy allows at most 2/,
    );
    expect(policy.exitCode).toBe(1);
  });
  it("a limit that is not a whole number of calls is a usage error naming the flag", async () => {
    const r = await runCliInProcess(["replay", CASSETTE, "--max-repeats", "0", "--", ...thrice]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--max-repeats must be a whole number of calls, at least 1 (got 0)");
  });
});
