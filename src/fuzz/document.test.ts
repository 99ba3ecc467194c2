import { describe, expect, it } from "vitest";
import type { CampaignFailure } from "./campaign.js";
import { fuzzDocument } from "./document.js";

const failure = (run: number, rules: unknown[]): CampaignFailure => ({
  seed: 100 + run,
  path: "0:1",
  run,
  violations: [{ check: "no-replay-after-unknown", message: "…" }],
  fcase: { base: 0, steps: [], rules: rules as CampaignFailure["fcase"]["rules"], expect: [] },
  unshrunkChecks: ["no-replay-after-unknown"],
});

describe("the fuzz document", () => {
  it("lists failures whose shrunk cases are equal once, under the first run, naming the others", () => {
    const click = [{ match: { tool: "click", nth: 1 }, fault: { kind: "truncated" } }];
    const type = [{ match: { tool: "type_text", nth: 1 }, fault: { kind: "truncated" } }];
    const result = { runs: 20, perRun: [], violations: 3, failures: [failure(4, click), failure(9, type), failure(2, click)] };
    const doc = fuzzDocument({ result, seed: 100, harness: "reference", reproduce: (f) => `--seed ${f.seed}`, baseName: () => "base" });
    expect(doc.failures.map((f) => [f.seed, f.reproduce, "same_case_runs" in f ? f.same_case_runs : undefined])).toEqual([
      [102, "--seed 102", [4]],
      [109, "--seed 109", undefined],
    ]);
  });
});
