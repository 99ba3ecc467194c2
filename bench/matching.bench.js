// Matching late in a long recording (docs/decisions/0200): cassettes of 1 000 and 100 000 events
// built from recordings/gtk3-demo-mcp (bench/scale/build.js), each replayed in process through its
// first ADVANCE recorded calls (the replay is then some hundred epochs in), then each kind of request
// timed on both. The ratio per kind is 100 000 ÷ 1 000 events (target ≤ 1.2), and the same at epoch 0.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createReplayer, loadReplayCassette } from "../dist/public/replay.js";
import { buildCassette } from "./scale/build.js";
import { fmt } from "./util.js";

export const name = "matching";
export const title = "Matching late in a long recording: per-call cost at 100 000 events ÷ at 1 000";

const root = fileURLToPath(new URL("..", import.meta.url));
const ADVANCE = 400;
const CALLS = 2000;
const ROUNDS = 5;

/** The kinds of request timed: each as the harness would send it at that point. */
function workloads(calls) {
  const first = (tool) => calls.find((c) => c.tool === tool);
  return {
    "read (list_windows)": ["list_windows", {}],
    "read with a screenshot (get_window_state)": ["get_window_state", first("get_window_state").args],
    "session start out of order": ["start_session", first("start_session").args ?? {}],
    "mutation sent again (resent_mutation)": ["click", first("click").args],
    "unmatched request": ["list_windows", { pid: 99999 }],
  };
}

/** Milliseconds per call of each workload, on a replayer that has replayed the first `advance` recorded calls. */
async function measure(cassette, advance) {
  const calls = cassette.prepared.exchanges.filter((x) => x.origin === "harness" && x.request.method === "call").map((x) => x.request);
  const out = {};
  for (const [label, [tool, args]] of Object.entries(workloads(calls))) {
    const replayer = createReplayer({ cassette });
    for (const c of calls.slice(0, advance)) await replayer.call(c.tool, c.args ?? {});
    for (let i = 0; i < 20; i++) await replayer.call(tool, args);
    const t = performance.now();
    for (let i = 0; i < CALLS; i++) await replayer.call(tool, args);
    out[label] = (performance.now() - t) / CALLS;
    out.epoch = replayer.engine.epoch;
  }
  return out;
}

export async function run() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "cua-matching-bench-"));
  try {
    const sizes = {};
    for (const events of [1000, 100000]) {
      const dir = path.join(tmp, `mcp-${events}`);
      await buildCassette({ from: path.join(root, "recordings/gtk3-demo-mcp"), out: dir, events });
      sizes[events] = loadReplayCassette(dir);
    }
    // alternating rounds; the fastest of each (what is left of the machine's noise)
    const rounds = { late: { 1000: [], 100000: [] }, start: { 1000: [], 100000: [] } };
    for (let r = 0; r < ROUNDS; r++) {
      for (const events of [1000, 100000]) {
        rounds.late[events].push(await measure(sizes[events], ADVANCE));
        rounds.start[events].push(await measure(sizes[events], 0));
      }
    }
    const best = (list, label) => Math.min(...list.map((m) => m[label]));
    const labels = Object.keys(rounds.late[1000][0]).filter((k) => k !== "epoch");
    const epoch = rounds.late[100000][0].epoch;
    const rows = labels.map((label) => {
      const small = best(rounds.late[1000], label);
      const large = best(rounds.late[100000], label);
      const ratio = large / small;
      const start = best(rounds.start[100000], label) / best(rounds.start[1000], label);
      return `| ${label} | ${fmt(small, 3)} ms | ${fmt(large, 3)} ms | ${fmt(ratio)} | ${fmt(start)} | ≤ 1.2 | ${ratio <= 1.2 ? "pass" : "miss"} |`;
    });
    return `
After the first ${ADVANCE} recorded calls (epoch ${epoch}), ${CALLS} calls of each kind in process (\`createReplayer\`), the fastest of ${ROUNDS} alternating rounds.

| request | 1 000 events | 100 000 events | ratio late | ratio at epoch 0 | target | result |
| --- | ---: | ---: | ---: | ---: | --- | --- |
${rows.join("\n")}
`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
