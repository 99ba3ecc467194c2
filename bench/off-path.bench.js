// Replay off the recorded path: the bundled scenarios replayed to the reference harness with faults
// that send it where the recording never went (the first mutation does not take effect, then the
// second times out after its effect, then its first read times out), against plain replay of the
// same scenarios without faults. The driver state model (docs/matching.md) answers the rebuilds,
// re-reads and skipped mutations; its answers are counted so the figure is known to exercise it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runReference } from "../dist/check/run-reference.js";
import { loadScenario, findScenarioFiles } from "../dist/check/load-scenario.js";
import { loadReplayCassette } from "../dist/check/replay-cassette.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "off-path";
export const title = "Replay off the recorded path vs plain replay";

const root = fileURLToPath(new URL("..", import.meta.url));
const TARGET = 1.2;
const OFF_PATH = {
  rules: [
    { match: { kind: "mutation", nth: 1 }, fault: { kind: "timeout_before_effect" } },
    { match: { kind: "mutation", nth: 2 }, fault: { kind: "timeout_after_effect" } },
    { match: { kind: "read", nth: 1 }, fault: { kind: "hang" } },
  ],
};

export async function run() {
  const loaded = findScenarioFiles({ args: [], bundledDir: path.join(root, "contracts/scenarios") }).map((f) => {
    const { scenario, cassetteDir } = loadScenario(f);
    return { scenario, cassette: loadReplayCassette(cassetteDir) };
  });
  const plain = loaded.map(({ scenario, cassette }) => ({ scenario: { ...scenario, faults: { rules: [] } }, cassette }));
  const off = loaded.map(({ scenario, cassette }) => ({ scenario: { ...scenario, faults: OFF_PATH }, cassette }));
  let synthesized = 0;
  let requests = 0;
  let unmatched = 0;
  for (const p of off) {
    const r = await runReference(p);
    for (const e of r.log) {
      if (e.type !== "request") continue;
      requests++;
      if (e.synthesized) synthesized++;
      if (e.outcome === "unmatched") unmatched++;
    }
  }
  const t = await timeInterleaved(
    {
      plain: async () => {
        for (const p of plain) await runReference(p);
      },
      off: async () => {
        for (const p of off) await runReference(p);
      },
    },
    { runs: 30, warmup: 3 },
  );
  const ratio = median(t.off) / median(t.plain);
  return [
    `Each pass replays the ${loaded.length} bundled scenarios once to the reference harness in process (virtual clock). Off-path plan: the first mutation \`timeout_before_effect\`, the second \`timeout_after_effect\`, the first read \`hang\`. Median of 30 interleaved passes.`,
    "",
    "| measure | value |",
    "| --- | --- |",
    `| plain replay, one pass | ${fmt(median(t.plain))} ms |`,
    `| off-path replay, one pass | ${fmt(median(t.off))} ms (${requests} requests, ${synthesized} answered by the state model, ${unmatched} unmatched) |`,
    `| **off-path ÷ plain** (target ≤ ${TARGET}) | **${fmt(ratio)}** — ${ratio <= TARGET ? "pass" : "miss"} |`,
  ].join("\n");
}
