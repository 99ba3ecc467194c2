// Judging a long replay log: every invariant over a 100 000-request log against reading that log
// (`readReplayLogs`: each line parsed and checked against the replay-log schema). The log is built
// from real ones: the bundled scenarios replayed to the reference harness with faults that send it
// off the recorded path (timeouts, hangs, refusals, synthesized answers), repeated with their
// requests renumbered, a declared observation and a stream opened now and then, so every
// invariant has causes to track all the way through. Also the judging cost per request on the
// last tenth of the log against its first tenth (late in a long log, where state has built up).
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findScenarioFiles, loadScenario } from "../dist/check/load-scenario.js";
import { loadReplayCassette } from "../dist/check/replay-cassette.js";
import { runReference } from "../dist/check/run-reference.js";
import { readReplayLogs } from "../dist/cassette/read-replay-logs.js";
import { runInvariants } from "../dist/invariants/run.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "invariants";
export const title = "Judging every invariant over a 100 000-request replay log vs reading it";

const root = fileURLToPath(new URL("..", import.meta.url));
const REQUESTS = 100_000;
const TARGET = 1.5;
const OFF_PATH = {
  rules: [
    { match: { kind: "mutation", nth: 1 }, fault: { kind: "timeout_before_effect" } },
    { match: { kind: "mutation", nth: 2 }, fault: { kind: "timeout_after_effect" } },
    { match: { kind: "mutation", nth: 3 }, fault: { kind: "refusal", code: "background_unavailable" } },
    { match: { kind: "read", nth: 1 }, fault: { kind: "hang" } },
  ],
};

/** Real replay logs of the bundled scenarios, off the recorded path. */
async function sourceLogs() {
  const logs = [];
  for (const file of findScenarioFiles({ args: [], bundledDir: path.join(root, "contracts/scenarios") })) {
    const { scenario, cassetteDir } = loadScenario(file);
    const r = await runReference({ scenario: { ...scenario, faults: OFF_PATH }, cassette: loadReplayCassette(cassetteDir) });
    logs.push(r.log.filter((e) => e.type !== "summary"));
  }
  return logs;
}

/** The source logs one after another, renumbered, until `requests` requests; JSONL text and the entries. */
function longLog(logs, requests) {
  const entries = [];
  let n = 0;
  let stream = 0;
  let t = 0;
  for (let round = 0; n < requests; round++) {
    const log = logs[round % logs.length];
    const base = n;
    const streams = new Map();
    for (const e of log) {
      if (n >= requests) break;
      t += 1;
      if (e.type === "request") {
        const s = e.stream === undefined ? {} : { stream: streams.get(e.stream) ?? e.stream };
        entries.push({ ...e, ...s, n: base + e.n, t_ms: t });
        n = Math.max(n, base + e.n + 1);
      } else if (e.type === "stream") {
        if (!streams.has(e.stream)) streams.set(e.stream, stream++);
        entries.push({ ...e, stream: streams.get(e.stream), t_ms: t });
      } else entries.push({ ...e, t_ms: t });
    }
    if (round % 7 === 3) entries.push({ type: "observation", t_ms: t, before: n, source: "declared", note: "read the app's own state" });
  }
  return entries;
}

export async function run() {
  const logs = await sourceLogs();
  const entries = longLog(logs, REQUESTS);
  const dir = mkdtempSync(path.join(os.tmpdir(), "cua-contract-bench-invariants-"));
  try {
    const file = path.join(dir, "replay.jsonl");
    writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const read = () => readReplayLogs([file])[0].entries;
    const parsed = read();
    const requests = parsed.filter((e) => e.type === "request").length;
    const report = runInvariants(parsed);
    const violations = report.results.reduce((k, r) => k + r.violations.length, 0);
    const tenth = Math.floor(parsed.length / 10);
    const first = parsed.slice(0, tenth);
    const last = parsed.slice(parsed.length - tenth);
    const t = await timeInterleaved(
      {
        read: async () => read(),
        judge: async () => runInvariants(parsed),
        first: async () => runInvariants(first),
        last: async () => runInvariants(last),
      },
      { runs: 7, warmup: 2 },
    );
    const readMs = median(t.read);
    const judgeMs = median(t.judge);
    const ratios = t.judge.map((j, i) => j / t.read[i]);
    const ratio = median(ratios);
    const both = median(t.judge.map((j, i) => (j + t.read[i]) / t.read[i]));
    const lateness = median(t.last.map((l, i) => l / t.first[i]));
    return `
${requests} requests (${parsed.length} entries with the batch marks, streams and declared observations, ${fmt(statSync(file).size / 2 ** 20, 1)} MiB) built from the ${logs.length} bundled scenarios replayed to the reference harness off the recorded path; the judging finds ${violations} violations. Median of 7 interleaved runs, ratio = median of the per-run ratios.

| step | median ms |
| --- | ---: |
| read the log (parse + schema, \`readReplayLogs\`) | ${fmt(readMs, 1)} |
| judge it (all ${report.results.length} invariants, \`runInvariants\`) | ${fmt(judgeMs, 1)} |

| ratio | value | target | result |
| --- | ---: | --- | --- |
| **judge ÷ read** | **${fmt(ratio)}** | ≤ ${TARGET} | ${ratio <= TARGET ? "pass" : "FAIL"} |
| (read + judge) ÷ read | ${fmt(both)} | – | – |
| judging the last tenth ÷ the first tenth (late in the log) | ${fmt(lateness)} | – | – |
`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
