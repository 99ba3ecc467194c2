// Campaigns side by side and across machines, each figure a ratio measured in this one run:
// (a) `fuzz --cmd … --jobs 4` ÷ `--jobs 1` wall time on the fail-closed example (40 runs over its
//     CLI recording, the harness's deadline 1 s), the two findings compared;
// (b) `merge-reports` of a campaign split in 4 shards ÷ the sum of the shards' wall times.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { fmt } from "./util.js";

export const name = "campaigns";
export const title = "Fuzz campaigns: cases side by side (--jobs) and shards merged (merge-reports)";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = path.join(root, "bin/cua-contract.js");
const example = path.join(root, "examples/fail-closed-python");

function timed(args, cwd = root) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  return { ms: performance.now() - t, code: r.status, stdout: r.stdout };
}

export async function run() {
  const campaign = ["fuzz", "--cmd", "python3 harness.py --transport cli", "--cassette", "recordings/cli", "--runs", "40", "--seed", "50"];
  const env = ["--env", "HARNESS_TIMEOUT_S=1", "--json"];
  const one = timed([...campaign, ...env, "--jobs", "1"], example);
  const four = timed([...campaign, ...env, "--jobs", "4"], example);
  const same = one.stdout === four.stdout && one.code === four.code;
  const speedup = one.ms / four.ms;

  const tmp = mkdtempSync(path.join(os.tmpdir(), "cua-campaigns-bench-"));
  try {
    const mutant = ["fuzz", "--harness", "resend-timed-out-click", "--runs", "400", "--seed", "7"];
    let shards = 0;
    for (const i of [1, 2, 3, 4]) shards += timed([...mutant, "--shard", `${i}/4`, "--blob", path.join(tmp, "blobs")]).ms;
    const merge = timed(["merge-reports", path.join(tmp, "blobs"), "--json"]);
    const whole = timed([...mutant, "--json"]);
    const equal = merge.stdout === whole.stdout;
    const ratio = merge.ms / shards;
    return `
| measure | value | baseline | ratio | target | result |
| --- | ---: | ---: | ---: | --- | --- |
| (a) fail-closed example, 40 runs: \`--jobs 1\` ÷ \`--jobs 4\` wall time (same findings: ${same ? "yes" : "NO"}) | ${fmt(four.ms / 1000, 1)} s | ${fmt(one.ms / 1000, 1)} s | ${fmt(speedup)}× faster | ≥ 2.5× | ${speedup >= 2.5 && same ? "pass" : "miss"} |
| (b) \`merge-reports\` of 4 shards (400 runs of a broken reference harness) ÷ the sum of the shards' wall times (merged = unsharded: ${equal ? "yes" : "NO"}) | ${fmt(merge.ms / 1000, 2)} s | ${fmt(shards / 1000, 1)} s | ${fmt(ratio)} | — | ${equal ? "pass" : "miss"} |

(a) one run of each, one after the other on the same machine; each case of the example waits on the harness's own 1 s deadlines. (b) each command a separate process (Node start-up included).
`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
