// The bump gate over every bundled recording, against the time to parse those recordings alone.
// Full gate = read the contract, read the candidate's snapshot (the pinned runtime, from a private
// snapshot cache filled by the first run; a cold probe is measured beside it), check the contract,
// diff against the baseline snapshot, then validate every recorded request and response against the
// candidate's schemas. Then `gate --matrix all` on a warm cache against the gate of one version.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { readCassette } from "../dist/cassette/index.js";
import { runGate } from "../dist/probe/gate/run-gate.js";
import { runMatrix } from "../dist/probe/gate/run-matrix.js";
import { checkRecordedCalls } from "../dist/probe/gate/check-recordings.js";
import { recordedCalls } from "../dist/probe/gate/recorded-calls.js";
import { createToolValidator } from "../dist/probe/gate/schema-validator.js";
import { readSnapshot } from "../dist/probe/read-snapshot.js";
import { probeSdk } from "../dist/probe/run-sdk.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "gate";
export const title = "Bump gate over the bundled recordings vs parsing them alone";

const root = new URL("../", import.meta.url).pathname;
const contract = path.join(root, "contracts/drivers/cua-driver-0.21.json");
const recordings = path.join(root, "recordings");

/** Medians of parse, recording check, probe and full gate over the cassettes in `dirs`. */
async function measure({ dirs, recordingsDir, candidate, runs, cacheRoot }) {
  const parse = async () => Promise.all(dirs.map((d) => readCassette(d, { frames: "skip" })));
  // The recording check alone: parse, extract the calls, prepare the candidate's schemas, validate.
  const recordingCheck = async () => {
    const cassettes = await parse();
    const validator = createToolValidator(candidate);
    return checkRecordedCalls(
      cassettes.flatMap((c, i) => recordedCalls(c, dirs[i])),
      validator,
    );
  };
  const probe = () => probeSdk({ version: "0.21.0" });
  const gate = () => runGate({ contract, sdk: "0.21.0", recordings: [recordingsDir], cacheRoot });
  const coldGate = () => runGate({ contract, sdk: "0.21.0", recordings: [recordingsDir], cacheRoot, refresh: true });
  const first = await gate();
  const events = (await parse()).reduce((n, c) => n + c.events.length, 0);
  const t = await timeInterleaved({ parse, recordingCheck, probe, gate, coldGate }, { runs, warmup: 3 });
  return {
    first,
    events,
    parse: median(t.parse),
    recordingCheck: median(t.recordingCheck),
    probe: median(t.probe),
    gate: median(t.gate),
    coldGate: median(t.coldGate),
  };
}

export async function run() {
  const dirs = readdirSync(recordings, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(recordings, e.name, "cassette.jsonl")))
    .map((e) => path.join(recordings, e.name));
  const candidate = (await readSnapshot(path.join(root, "contracts/drivers/cua-driver-0.21.0.probe.json.gz"))).tools_list.tools;
  const cacheRoot = mkdtempSync(path.join(os.tmpdir(), "gate-bench-cache-"));
  const small = await measure({ dirs, recordingsDir: recordings, candidate, runs: 25, cacheRoot });
  // gate --matrix all: the first run fills the private snapshot cache (probing every published version) and the verdict cache.
  const matrix = (verdictCache = true) => runMatrix({ contract, recordings: [recordings], matrix: "all", cacheRoot, verdictCache });
  const coldStart = performance.now();
  const cold = await matrix();
  const coldMs = performance.now() - coldStart;
  const one = () => runGate({ contract, sdk: "0.21.0", recordings: [recordings], cacheRoot });
  const tm = await timeInterleaved({ one, matrix: () => matrix(true), rejudged: () => matrix(false) }, { runs: 25, warmup: 3 });
  const [oneMs, matrixMs, rejudgedMs] = [median(tm.one), median(tm.matrix), median(tm.rejudged)];
  // The same recordings 25 times over (copies of cassette.jsonl; frames are not read by the gate).
  const copies = 25;
  const big = mkdtempSync(path.join(os.tmpdir(), "gate-bench-"));
  try {
    const bigDirs = [];
    for (let i = 0; i < copies; i++) {
      for (const d of dirs) {
        const to = path.join(big, `${path.basename(d)}-${i}`);
        mkdirSync(to);
        copyFileSync(path.join(d, "cassette.jsonl"), path.join(to, "cassette.jsonl"));
        bigDirs.push(to);
      }
    }
    const large = await measure({ dirs: bigDirs, recordingsDir: big, candidate, runs: 10, cacheRoot });
    const row = (label, m, ms, target) => {
      const ratio = ms / m.parse;
      return `| ${label} | ${fmt(ms, 2)} | ${fmt(ratio)} | ${target ?? "–"} | ${target ? (ratio <= 3 ? "pass" : "miss") : "–"} |`;
    };
    const table = (m) =>
      [
        "| measured | median ms | ÷ parse | target | result |",
        "| --- | ---: | ---: | --- | --- |",
        row("parse the recordings (readCassette, frames skipped)", m, m.parse),
        row("recording check: parse + extract calls + prepare schemas + validate", m, m.recordingCheck),
        row("probe the candidate alone (`--sdk 0.21.0`: CuaDriver.create, listToolsJson, metadata)", m, m.probe),
        row("full `gate`, candidate snapshot from the cache (contract, snapshot, check, diff, recording check)", m, m.gate, "≤ 3"),
        row("full `gate`, candidate probed again (`refresh`: CuaDriver.create, listToolsJson, metadata)", m, m.coldGate),
      ].join("\n");
    return [
      `Candidate \`--sdk 0.21.0\` (the pinned runtime, in process), contract \`contracts/drivers/cua-driver-0.21.json\`. Schemas in the keyword subset cua-driver uses are interpreted (no compile step; ajv compiles the rest once). Interleaved runs, medians.`,
      "",
      `**Bundled recordings** ${dirs.map((d) => `\`${path.relative(root, d)}\``).join(", ")}: ${small.events} events, ${small.first.recordings.calls} recorded calls, gate ok = ${small.first.ok}; 25 runs.`,
      "",
      table(small),
      "",
      `**The same recordings ×${copies}** (${large.events} events, ${large.first.recordings.calls} recorded calls); 10 runs.`,
      "",
      table(large),
      "",
      `With the snapshot cache, a rerun no longer pays the candidate probe (${fmt(small.probe, 0)} ms on its own, ${fmt(small.probe / small.parse, 1)}× the parse of two small cassettes): the gate is read, check, diff and recording check. The part that grows with the recordings, the recording check, stays within ${fmt(large.recordingCheck / large.parse, 2)}× parse at ×${copies}.`,
      "",
      `**\`gate --matrix all\`** over ${cold.rows.length} published versions (${cold.rows.map((r) => `${r.version} ${r.verdict}`).join(", ")}); first run ${fmt(coldMs, 0)} ms (probing every version into an empty snapshot cache; versions already installed under ~/.cache/cua-contract/sdk are not reinstalled). Then 25 interleaved runs, medians:`,
      "",
      "| measured | median ms | ÷ one-version gate | target | result |",
      "| --- | ---: | ---: | --- | --- |",
      `| one-version gate (\`--sdk 0.21.0\`, warm snapshot cache) | ${fmt(oneMs, 2)} | 1.00 | – | – |`,
      `| \`gate --matrix all\`, warm (snapshots and verdicts cached; nothing installed, probed or re-judged) | ${fmt(matrixMs, 2)} | ${fmt(matrixMs / oneMs)} | ≤ 1.5 | ${matrixMs / oneMs <= 1.5 ? "pass" : "miss"} |`,
      `| \`gate --matrix all\`, warm snapshots, every version judged again (verdict cache off) | ${fmt(rejudgedMs, 2)} | ${fmt(rejudgedMs / oneMs)} | – | – |`,
      "",
      "A verdict is reused only when nothing it depends on changed: the judging code, the working directory, the contract, the expected failures, the baseline, each cassette and the version's snapshot, each by path, size and modification time.",
    ].join("\n");
  } finally {
    rmSync(big, { recursive: true, force: true });
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}
