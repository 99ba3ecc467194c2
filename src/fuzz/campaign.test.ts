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

describe("fuzz campaigns with cases side by side (--jobs)", () => {
  // a harness stand-in that answers after a delay of its own (so cases finish out of order) and
  // breaks a check when the case injects two faults or more
  let inFlight = 0;
  let most = 0;
  const slowCase = async (fcase: { rules: readonly unknown[]; steps: readonly unknown[] }) => {
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, (fcase.steps.length * 7 + fcase.rules.length * 3) % 11));
    inFlight--;
    return { violations: fcase.rules.length >= 2 ? [{ check: "two-faults", message: `${fcase.rules.length} faults` }] : [] };
  };
  const same = (r: Awaited<ReturnType<typeof runCampaign>>) => ({ ...r, perRun: r.perRun.map(({ durationMs: _d, ...run }) => run) });

  it("give the result of one job: the same runs, checks, and shrunk failures in the same order", async () => {
    most = 0;
    const one = await runCampaign({ bases, runs: 40, seed: 11, runCase: slowCase });
    expect(most).toBe(1);
    const four = await runCampaign({ bases, runs: 40, seed: 11, runCase: slowCase, jobs: 4 });
    expect(most).toBe(4);
    expect(one.violations).toBeGreaterThan(3);
    expect(one.failures).toHaveLength(3);
    expect(same(four)).toEqual(same(one));
  });

  it("stop at the first failing run in run order, as one job does", async () => {
    const one = await runCampaign({ bases, runs: 40, seed: 11, runCase: slowCase, stopAtFirst: true });
    const four = await runCampaign({ bases, runs: 40, seed: 11, runCase: slowCase, stopAtFirst: true, jobs: 4 });
    expect(one.runs).toBeLessThan(40);
    expect(same(four)).toEqual(same(one));
  });

  it("give a mutant's shrunk failures as one job does", async () => {
    const mutant = MUTANTS.find((m) => m.name === "resend-timed-out-click")!;
    const one = await runCampaign({ bases, parts: mutant.parts, runs: 30, seed: 3 });
    const three = await runCampaign({ bases, parts: mutant.parts, runs: 30, seed: 3, jobs: 3 });
    expect(one.failures.length).toBeGreaterThan(0);
    expect(same(three)).toEqual(same(one));
  });
});
