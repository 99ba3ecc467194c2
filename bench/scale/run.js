#!/usr/bin/env node
// The scaling benchmark (`npm run bench:scale`): cassettes of 100 / 1 000 / 10 000 / 100 000 events
// built from the bundled real recordings through the public writer, and one over 2 GiB, in a temp
// dir deleted afterwards. For each: wall time, peak RSS and per-call latency of inspect, replay
// (CLI and MCP), serve, gate, check and report, each command a separate process under GNU time.
// Prints a Markdown table; with --write, also puts it in bench/RESULTS.md.
//   --sizes 100,1000      the event counts (default 100,1000,10000,100000)
//   --mib 100             also a CLI and an MCP cassette of at least this many MiB, every command (0: none)
//   --big-gib 2           the size of the big cassette (0: none): inspect, replay and gate; --big-all runs every command on it
//   --only inspect,report the commands to run (default: all)
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildCassette } from "./build.js";
import { mcpCalls } from "./mcp-client.mjs";
import { fmt, median, writeResultsSection } from "../util.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = path.join(root, "bin/cua-contract.js");
const TIME = "/usr/bin/time";
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};
const sizes = String(flag("sizes", "100,1000,10000,100000")).split(",").map(Number);
const bigGib = Number(flag("big-gib", "2"));
const bigAll = process.argv.includes("--big-all");
const mib = Number(flag("mib", "100"));
const only = flag("only", undefined)?.split(",");
const TIMEOUT_MS = 15 * 60_000;
// spawned CLI calls per replay: each is a process start, so their times scatter on a shared machine
const CLI_CALLS = 50;

if (!existsSync(TIME)) {
  console.error(`bench:scale needs GNU time at ${TIME} (apt-get install time) to measure each command's peak RSS`);
  process.exit(2);
}

/** Runs a command under GNU time: wall seconds, peak RSS in MiB, exit code, output. */
function timed(command, args, options = {}) {
  const out = path.join(options.tmp, `time-${process.hrtime.bigint()}.txt`);
  const r = spawnSync(TIME, ["-o", out, "-f", "%e %M", command, ...args], {
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    maxBuffer: 1 << 30,
    cwd: root,
    env: options.env ?? process.env,
  });
  const [wall, rss] = existsSync(out) ? readFileSync(out, "utf8").trim().split("\n").pop().split(" ").map(Number) : [NaN, NaN];
  return { wall, rss: rss / 1024, code: r.status, signal: r.signal, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** The same for a server driven by `drive(command, args)` (it spawns the process itself). */
async function timedAsync(drive, command, args, tmp) {
  const out = path.join(tmp, `time-${process.hrtime.bigint()}.txt`);
  const result = await drive(TIME, ["-o", out, "-f", "%e %M", command, ...args]);
  const [wall, rss] = readFileSync(out, "utf8").trim().split("\n").pop().split(" ").map(Number);
  return { wall, rss: rss / 1024, result };
}

function bytesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, String(f)))
    .filter((f) => statSync(f).isFile())
    .reduce((n, f) => n + statSync(f).size, 0);
}

// The first recorded lines of a cassette (the recordings begin with start_session, then list_windows).
function firstEvents(dir, count = 40) {
  const events = [];
  const head = Buffer.alloc(4 << 20);
  const fd = openSync(path.join(dir, "cassette.jsonl"), "r");
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  for (const l of head.subarray(0, n).toString("utf8").split("\n").slice(1, count)) {
    try {
      events.push(JSON.parse(l));
    } catch {
      break;
    }
  }
  return events;
}

// The recorded initialize, the recorded start_session (the first mutation: list_windows is answered after it) and list_windows.
function mcpLines(dir) {
  const c2s = firstEvents(dir)
    .filter((e) => e.kind === "mcp" && e.dir === "c2s" && typeof e.line === "string")
    .map((e) => JSON.parse(e.line));
  const tool = (name) => c2s.find((m) => m.method === "tools/call" && m.params?.name === name);
  return { initialize: c2s.find((m) => m.method === "initialize"), setup: [tool("start_session")], call: tool("list_windows") };
}

// The same for the CLI recording: argv arrays.
function cliCalls(dir) {
  const calls = firstEvents(dir).filter((e) => e.kind === "cli" && e.origin !== "recorder" && e.argv[0] === "call");
  const argv = (tool) => calls.find((e) => e.argv[1] === tool).argv;
  return { setup: [argv("start_session")], call: argv("list_windows") };
}

const cell = (m, perCall) => {
  if (!m) return "—";
  if (m.failed) return `fails: ${m.failed}`;
  return `${fmt(m.wall, 2)} s, ${fmt(m.rss, 0)} MiB${perCall !== undefined ? `, ${fmt(perCall, 2)} ms/call` : ""}`;
};

const failure = (r) => {
  if (r.code === 0 || r.code === 1) return undefined;
  if (/heap out of memory|Allocation failed/.test(r.stderr)) return `out of memory (V8 heap limit), exit ${r.code ?? r.signal}`;
  return `exit ${r.code ?? r.signal}: ${(r.stderr.trim().split("\n").pop() ?? "").slice(0, 160)}`;
};

/** The commands that serve calls: wall, peak RSS and the median per-call latency of one run each. */
const serving = {
  replayCli(tmp, cliDir) {
    const out = path.join(tmp, "calls.json");
    const { setup, call } = cliCalls(cliDir);
    const r = timed(
      process.execPath,
      [
        cli,
        "replay",
        cliDir,
        "--",
        process.execPath,
        path.join(root, "bench/scale/harness-cli.mjs"),
        out,
        String(CLI_CALLS),
        JSON.stringify(setup),
        JSON.stringify(call),
      ],
      { tmp },
    );
    const m =
      failure(r) || !existsSync(out)
        ? { failed: failure(r) ?? `no calls made: ${r.stderr.trim().split("\n").pop()}` }
        : { ...r, perCall: median(JSON.parse(readFileSync(out, "utf8"))) };
    rmSync(out, { force: true });
    return m;
  },
  replayMcp(tmp, mcpDir) {
    const out = path.join(tmp, "mcp-calls.json");
    const lines = path.join(tmp, "mcp-lines.json");
    writeFileSync(lines, JSON.stringify(mcpLines(mcpDir)));
    const r = timed(process.execPath, [cli, "replay", mcpDir, "--", process.execPath, path.join(root, "bench/scale/harness-mcp.mjs"), out, "200", lines], {
      tmp,
    });
    const m =
      failure(r) || !existsSync(out)
        ? { failed: failure(r) ?? `no calls made: ${r.stderr.trim().split("\n").pop()}` }
        : { ...r, perCall: median(JSON.parse(readFileSync(out, "utf8"))) };
    rmSync(out, { force: true });
    return m;
  },
  async serve(tmp, mcpDir) {
    const { initialize, setup, call } = mcpLines(mcpDir);
    try {
      const s = await timedAsync(
        (command, args) => mcpCalls({ command, args, initialize, setup, call, n: 200 }),
        process.execPath,
        [cli, "serve", mcpDir, "--transport", "mcp"],
        tmp,
      );
      return { wall: s.wall, rss: s.rss, perCall: median(s.result) };
    } catch (error) {
      return { failed: String(error.message).includes("134") ? "out of memory (V8 heap limit), exit 134" : String(error.message).slice(0, 160) };
    }
  },
};

/**
 * Per-call cost at 100 000 events ÷ at 1 000, side by side: the two cassettes' replays alternate
 * (ROUNDS each), and the ratio is of the medians of their per-replay medians. On a shared machine a
 * single spawned-call replay moves by a third from run to run, in either direction.
 */
const ROUNDS = 3;
async function pairedPerCall(tmp, small, large) {
  const out = {};
  for (const [key, dir, run] of [
    ["replayCli", "cliDir", serving.replayCli],
    ["replayMcp", "mcpDir", serving.replayMcp],
    ["serve", "mcpDir", serving.serve],
  ]) {
    if (!wantsAny(key === "serve" ? "serve" : "replay")) continue;
    const times = { small: [], large: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const [which, dirs] of [
        ["small", small],
        ["large", large],
      ]) {
        const m = await run(tmp, dirs[dir]);
        if (m.perCall !== undefined) times[which].push(m.perCall);
      }
    }
    if (times.small.length && times.large.length)
      out[key] = { small: median(times.small), large: median(times.large), ratio: median(times.large) / median(times.small) };
  }
  return out;
}

const wantsAny = (name) => !only || only.includes(name);

async function measureSize({ tmp, label, cliDir, mcpDir, commands }) {
  const row = { label };
  const info = { cli: { events: 0, bytes: 0 }, mcp: { events: 0, bytes: 0 } };
  row.info = info;
  const wants = (name) => (!only || only.includes(name)) && (!commands || commands.includes(name));
  if (wants("inspect")) {
    const r = timed(process.execPath, [cli, "inspect", cliDir, "--json"], { tmp });
    row.inspect = failure(r) ? { failed: failure(r) } : r;
  }
  if (wants("replay")) row.replayCli = serving.replayCli(tmp, cliDir);
  if (mcpDir && wants("replay")) row.replayMcp = serving.replayMcp(tmp, mcpDir);
  if (mcpDir && wants("serve")) row.serve = await serving.serve(tmp, mcpDir);
  if (wants("gate")) {
    const r = timed(
      process.execPath,
      [cli, "gate", "--contract", "contracts/drivers/cua-driver-0.21.json", "--driver", "sdk", "--recordings", cliDir, "--json"],
      { tmp },
    );
    let calls;
    try {
      calls = JSON.parse(r.stdout).recordings?.calls;
    } catch {
      calls = undefined;
    }
    row.gate = failure(r) ? { failed: failure(r) } : { ...r, ...(calls ? { perCall: (r.wall * 1000) / calls } : {}) };
  }
  if (mcpDir && wants("check")) {
    const scenario = JSON.parse(readFileSync(path.join(root, "contracts/scenarios/blocked-key-combo.json"), "utf8"));
    const file = path.join(tmp, "scenario.json");
    writeFileSync(file, JSON.stringify({ ...scenario, $schema: undefined, cassette: mcpDir }));
    const r = timed(process.execPath, [cli, "check", file, "--json"], { tmp });
    row.check = failure(r) ? { failed: failure(r) } : r;
  }
  if (wants("report")) {
    const out = path.join(tmp, "report.html");
    const r = timed(process.execPath, [cli, "report", cliDir, "--out", out, "--json"], { tmp });
    let stats;
    try {
      stats = JSON.parse(r.stdout);
    } catch {
      stats = undefined;
    }
    if (failure(r) || !stats) row.report = { failed: failure(r) ?? `exit ${r.code}, no summary: ${r.stderr.trim().split("\n").pop()?.slice(0, 160)}` };
    else {
      const frames = bytesUnder(path.join(cliDir, "frames"));
      row.report = { ...r, html: stats.bytes, sizeRatio: stats.bytes / (frames + 2048 * stats.rows), rows: stats.rows };
    }
    rmSync(out, { force: true });
  }
  return row;
}

const tmp = mkdtempSync(path.join(os.tmpdir(), "cua-scale-bench-"));
const rows = [];
const started = Date.now();
let kept;
let paired;
try {
  for (const n of sizes) {
    process.stderr.write(`bench:scale: ${n} events …\n`);
    const cliDir = path.join(tmp, `cli-${n}`);
    const mcpDir = path.join(tmp, `mcp-${n}`);
    const c = await buildCassette({ from: path.join(root, "recordings/gtk3-demo-cli"), out: cliDir, events: n });
    const m = await buildCassette({ from: path.join(root, "recordings/gtk3-demo-mcp"), out: mcpDir, events: n });
    const row = await measureSize({ tmp, label: `${n}`, cliDir, mcpDir });
    row.info = { cli: c, mcp: m };
    rows.push(row);
    process.stderr.write(`bench:scale: ${JSON.stringify(row, (k, v) => (k === "stdout" || k === "stderr" ? undefined : v))}\n`);
    if (n === 1000 && sizes.includes(100000)) {
      kept = { cliDir, mcpDir }; // for the paired per-call ratio
      continue;
    }
    if (n === 100000 && kept) {
      process.stderr.write(`bench:scale: per-call cost, 1 000 and 100 000 events side by side …\n`);
      paired = await pairedPerCall(tmp, kept, { cliDir, mcpDir });
      process.stderr.write(`bench:scale: ${JSON.stringify(paired)}\n`);
      rmSync(kept.cliDir, { recursive: true, force: true });
      rmSync(kept.mcpDir, { recursive: true, force: true });
    }
    rmSync(cliDir, { recursive: true, force: true });
    rmSync(mcpDir, { recursive: true, force: true });
  }
  if (mib > 0) {
    process.stderr.write(`bench:scale: cassettes of ${mib} MiB …\n`);
    const cliDir = path.join(tmp, "cli-mib");
    const mcpDir = path.join(tmp, "mcp-mib");
    const c = await buildCassette({ from: path.join(root, "recordings/gtk3-demo-cli"), out: cliDir, minBytes: mib * 2 ** 20 });
    const m = await buildCassette({ from: path.join(root, "recordings/gtk3-demo-mcp"), out: mcpDir, minBytes: mib * 2 ** 20 });
    const row = await measureSize({ tmp, label: `${c.events} CLI / ${m.events} MCP (${mib} MiB)`, cliDir, mcpDir });
    row.info = { cli: c, mcp: m };
    row.mib = true;
    rows.push(row);
    process.stderr.write(`bench:scale: ${JSON.stringify(row, (k, v) => (k === "stdout" || k === "stderr" ? undefined : v))}\n`);
    rmSync(cliDir, { recursive: true, force: true });
    rmSync(mcpDir, { recursive: true, force: true });
  }
  if (bigGib > 0) {
    process.stderr.write(`bench:scale: a ${bigGib} GiB cassette …\n`);
    const cliDir = path.join(tmp, "cli-big");
    const c = await buildCassette({ from: path.join(root, "recordings/gtk3-demo-cli"), out: cliDir, minBytes: bigGib * 2 ** 30 });
    const row = await measureSize({
      tmp,
      label: `${c.events} (${fmt(c.bytes / 2 ** 30, 2)} GiB)`,
      cliDir,
      mcpDir: undefined,
      ...(bigAll ? {} : { commands: ["inspect", "replay", "gate"] }),
    });
    row.info = { cli: c };
    rows.push(row);
    process.stderr.write(`bench:scale: ${JSON.stringify(row, (k, v) => (k === "stdout" || k === "stderr" ? undefined : v))}\n`);
    rmSync(cliDir, { recursive: true, force: true });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const perCall = (label, key) => {
  const p = paired?.[key];
  return p ? `${label} ${fmt(p.ratio)} (${fmt(p.large, 2)} ÷ ${fmt(p.small, 2)} ms)` : `${label} —`;
};
const ten = rows.find((r) => r.label === "10000")?.report;
const hundred = rows.find((r) => r.mib);
const rssOf = (label, m, wall = false) =>
  !m ? `${label} —` : m.failed ? `${label} fails (${m.failed})` : `${label} ${wall ? `${fmt(m.wall, 1)} s, ` : ""}${fmt(m.rss, 0)} MiB`;
const big = rows.find((r) => r.label.includes("GiB"));
const body = [
  `Cassettes built from \`recordings/gtk3-demo-cli\` (CLI) and \`recordings/gtk3-demo-mcp\` (MCP) through \`openCassetteWriter\`: the recording, then its harness events again and again. Each cell: wall time, peak RSS (GNU time) and, where the command serves calls, the median per-call latency (after the recorded start_session: CLI replay, ${CLI_CALLS} spawned \`call list_windows {}\`; MCP replay and serve, 200 sequential \`tools/call list_windows\`; gate: wall ÷ recorded calls). check runs \`contracts/scenarios/blocked-key-combo.json\` on the MCP cassette; report is \`report\` of the CLI cassette.`,
  "",
  "| events | cassette | inspect | replay (CLI) | replay (MCP) | serve (MCP stdio) | gate | check | report |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.label} | ${fmt(r.info.cli.bytes / 2 ** 20, 1)} MiB${r.info.mcp ? ` (MCP ${fmt(r.info.mcp.bytes / 2 ** 20, 1)} MiB)` : ""} | ${cell(r.inspect)} | ${cell(r.replayCli, r.replayCli?.perCall)} | ${cell(r.replayMcp, r.replayMcp?.perCall)} | ${cell(r.serve, r.serve?.perCall)} | ${cell(r.gate, r.gate?.perCall)} | ${cell(r.check)} | ${r.report?.html ? `${cell(r.report)}, ${fmt(r.report.html / 2 ** 20, 1)} MiB HTML` : cell(r.report)} |`,
  ),
  "",
  `Per-call cost at 100 000 events ÷ at 1 000 (target ≤ 1.2; ${ROUNDS} replays of each cassette alternating, median of their medians; the cells above are single runs): ${perCall("CLI replay", "replayCli")}; ${perCall("MCP replay", "replayMcp")}; ${perCall("serve", "serve")}.`,
  ten?.sizeRatio
    ? `Report HTML ÷ (distinct frame bytes + 2 KiB per call), 10 000 events (target ≤ 1.2): ${fmt(ten.sizeRatio)} (${ten.rows} calls, ${fmt(ten.html / 2 ** 20, 1)} MiB).`
    : "",
  hundred
    ? `Peak RSS replaying a cassette of at least ${mib} MiB (target ≤ 300 MiB): ${rssOf("CLI replay", hundred.replayCli)} (${fmt(hundred.info.cli.bytes / 2 ** 20, 0)} MiB cassette); ${rssOf("MCP replay", hundred.replayMcp)}, ${rssOf("serve", hundred.serve)} (${fmt(hundred.info.mcp.bytes / 2 ** 20, 0)} MiB cassette).`
    : "",
  big
    ? `The ${big.label} cassette (target: inspect, replay, gate work with peak RSS ≤ 400 MiB): ${["inspect", "replayCli", "gate"].map((k) => rssOf(k === "replayCli" ? "replay" : k, big[k], true)).join("; ")}.`
    : "",
]
  .filter((l) => l !== undefined)
  .join("\n");
console.log(body);
if (process.argv.includes("--write")) {
  writeResultsSection({ name: "scale", title: "Scaling: 100 to 100 000 events and a cassette over 2 GiB", seconds: (Date.now() - started) / 1000, body });
  process.stderr.write("bench:scale: wrote bench/RESULTS.md\n");
}
