// CLI start-up against Node's own: `--help` and `inspect` of the bundled CLI recording, each ÷
// `node -e 0`, in paired runs (one of each, in turn, so machine noise hits them alike).
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "startup";
export const title = "CLI start-up vs `node -e 0`";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = path.join(root, "bin/cua-contract.js");
const node = (args) => new Promise((resolve, reject) => execFile(process.execPath, args, { cwd: root }, (err) => (err ? reject(err) : resolve())));

export async function run() {
  const runs = 30;
  const t = await timeInterleaved(
    {
      node: () => node(["-e", "0"]),
      help: () => node([cli, "--help"]),
      inspect: () => node([cli, "inspect", "recordings/gtk3-demo-cli"]),
      version: () => node([cli, "--version"]),
    },
    { runs, warmup: 3 },
  );
  // The ratio of each pair, then the median of those: a burst of load hits both halves of a pair.
  const paired = (name) => median(t[name].map((ms, i) => ms / t.node[i]));
  const row = (label, name, target) => {
    const r = paired(name);
    return `| ${label} | ${fmt(median(t[name]), 1)} | ${fmt(median(t.node), 1)} | ${fmt(r)} | ≤ ${target} | ${r <= target ? "pass" : "miss"} |`;
  };
  return [
    `Median of ${runs} paired runs (each run: \`node -e 0\`, then each command), ratio = median of the per-pair ratios.`,
    "",
    "| command | median ms | `node -e 0` median ms | ratio (paired) | target | result |",
    "| --- | ---: | ---: | ---: | --- | --- |",
    row("`cua-contract --help`", "help", 1.5),
    row("`cua-contract --version`", "version", 1.5),
    row("`cua-contract inspect recordings/gtk3-demo-cli`", "inspect", 2),
  ].join("\n");
}
