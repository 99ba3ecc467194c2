// Fuzzing cost: generated runs/s (case generation, replay with faults, the reference harness,
// invariants, decision oracles) as a ratio to plain replay of the same bundled scenarios without
// faults (the floor: replayer + reference harness + step script only). Plus absolute figures and
// the time of a 10 000-run campaign of the reference harness (which must find nothing) and of the mutant hunt.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { bundledBases } from "../dist/fuzz/bases.js";
import { runCampaign } from "../dist/fuzz/campaign.js";
import { runMutants } from "../dist/fuzz/mutant-campaign.js";
import { runReference } from "../dist/check/run-reference.js";
import { loadScenario, findScenarioFiles } from "../dist/check/load-scenario.js";
import { loadReplayCassette } from "../dist/check/replay-cassette.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "fuzz";
export const title = "Fuzzing: runs/s against plain replay of the same scenarios";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundled = path.join(root, "contracts/scenarios");
const TARGET = 0.5;

export async function run() {
  const bases = bundledBases(bundled);
  const plain = findScenarioFiles({ args: [], bundledDir: bundled }).map((f) => {
    const { scenario, cassetteDir } = loadScenario(f);
    return { scenario: { ...scenario, faults: { rules: [] } }, cassette: loadReplayCassette(cassetteDir) };
  });
  const batch = plain.length; // one pass: each bundled scenario once, and as many fuzz runs
  let seed = 1000;
  const t = await timeInterleaved(
    {
      plain: async () => {
        for (const p of plain) await runReference(p);
      },
      fuzz: async () => {
        await runCampaign({ bases, runs: batch, seed });
        seed += batch;
      },
    },
    { runs: 15, warmup: 2 },
  );
  const plainRate = (batch / median(t.plain)) * 1000;
  const fuzzRate = (batch / median(t.fuzz)) * 1000;
  const ratio = fuzzRate / plainRate;

  const started = performance.now();
  const cpu = process.cpuUsage();
  const long = await runCampaign({ bases, runs: 10_000, seed: 20261129 });
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const huntStart = performance.now();
  const mutants = await runMutants({ bases, runs: 500, seed: 1 });
  const hunt = (performance.now() - huntStart) / 1000;

  return [
    "| measure | value |",
    "| --- | --- |",
    `| plain replay, bundled scenarios without faults | ${fmt(plainRate, 0)} runs/s |`,
    `| fuzz runs (generate + replay with faults + invariants + oracles) | ${fmt(fuzzRate, 0)} runs/s |`,
    `| **ratio fuzz / plain** (target ≥ ${TARGET}) | **${fmt(ratio)}** — ${ratio >= TARGET ? "pass" : "miss"} |`,
    `| 10 000-run campaign, reference harness (seed 20261129) | ${fmt(wall, 1)} s wall, ${fmt(cpuSeconds, 1)} s CPU; **${long.violations} failing runs** (target 0) — ${long.violations === 0 ? "pass" : "miss"} |`,
    `| mutant hunt, 6 mutants × ≤ 500 runs, differential (seed 1) | ${fmt(hunt, 1)} s; caught after ${mutants.map((m) => `${m.name} ${m.caught ? m.runs : "never"}`).join(", ")} |`,
  ].join("\n");
}
