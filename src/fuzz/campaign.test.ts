import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledBases } from "./bases.js";
import { runCampaign } from "./campaign.js";
import { MUTANTS } from "./mutants.js";

const bases = bundledBases(path.join(import.meta.dirname, "../../contracts/scenarios"));

describe("fuzz campaigns", () => {
  it("find no violation in the reference harness (500 runs, fixed seed)", async () => {
    const r = await runCampaign({ bases, runs: 500, seed: 20261129 });
    expect(r.failures.map((f) => f.violations)).toEqual([]);
    expect(r.runs).toBe(500);
  });

  it("replay one shrunk case exactly from its seed and path", async () => {
    const mutant = MUTANTS.find((m) => m.name === "resend-timed-out-click")!;
    const hunt = await runCampaign({ bases, parts: mutant.parts, runs: 200, seed: 1, stopAtFirst: true });
    const found = hunt.failures[0]!;
    const again = await runCampaign({ bases, parts: mutant.parts, runs: 1, seed: found.seed, path: found.path });
    expect(again.failures[0]?.fcase).toEqual(found.fcase);
    expect(again.failures[0]?.violations.map((v) => v.check)).toEqual(found.violations.map((v) => v.check));
  });
});
