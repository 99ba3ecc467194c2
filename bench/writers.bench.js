// Prune and merge of a large cassette against copying its bytes. The cassette is generated (CLI
// calls with ~8 KiB answers, one frame), `CUA_BENCH_WRITERS_MB` big (default 1024). "Copy" reads the
// file and writes it to a new one in 1 MiB blocks, then fsyncs it: what any plain copy of the
// bytes costs. Prune keeps every other call and merge appends the cassette to itself, each run as
// the CLI does: prune reads and validates every line and writes the kept ones in the same pass,
// merge checks both inputs, then writes; both the atomic way (temp file beside, checked writes,
// fsync, rename, fsync folder). The write phase alone is also timed:
// the same atomic write of the same output bytes, which is what decision 0180 adds.
import { closeSync, cpSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { execFileSync } from "node:child_process";
import { fmt, median } from "./util.js";

export const name = "writers";
export const title = "Prune and merge of a large cassette vs copying it";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = (p) => import(path.join(root, "dist", p));
const FRAME = "frames/ebc1a12310fa96efae931acb75771ee38856cfb70a921e7fb5bfa34128a9262b.png";

function generate(dir, bytes) {
  mkdirSync(path.join(dir, "frames"), { recursive: true });
  cpSync(path.join(root, "test/fixtures/cassettes/replay-cli-gtk", FRAME), path.join(dir, FRAME));
  const header = JSON.stringify({
    format: "cua-cassette",
    version: 1,
    transport: "cli",
    driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic" },
    recorded_at: "2026-11-29T00:00:00.000Z",
    recorder: { name: "bench/writers.bench.js", version: "1" },
  });
  const fd = openSync(path.join(dir, "cassette.jsonl"), "w");
  const chunks = [`${header}\n`];
  let size = chunks[0].length;
  let seq = 0;
  const pad = "x".repeat(8000);
  while (size < bytes) {
    const files = seq === 2 ? { files: { "--screenshot-out-file": { ref: FRAME, path: "/tmp/d.png" } } } : {};
    const line = `${JSON.stringify({ seq, t_ms: seq, duration_ms: 1, kind: "cli", argv: ["call", "get_screen_size"], stdout: `{"n":${seq},"pad":"${pad}"}\n`, stderr: "", exit_code: 0, ...files })}\n`;
    chunks.push(line);
    size += line.length;
    seq++;
    if (chunks.length >= 1000) writeSync(fd, chunks.splice(0).join(""));
  }
  writeSync(fd, chunks.join(""));
  closeSync(fd);
  return seq;
}

function copyFile(from, to) {
  const buf = Buffer.allocUnsafe(1 << 20);
  const a = openSync(from, "r");
  const b = openSync(to, "w");
  let at = 0;
  for (;;) {
    const n = readSync(a, buf, 0, buf.length, at);
    if (n === 0) break;
    writeSync(b, buf, 0, n);
    at += n;
  }
  fsyncSync(b);
  closeSync(a);
  closeSync(b);
}

const time = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

export async function run() {
  // the machine is shared: its load (runnable processes, 1-minute average) says how much other work the timings ran beside
  const loadBefore = os.loadavg()[0];
  const mb = Number(process.env.CUA_BENCH_WRITERS_MB ?? 1024);
  const { pruneCassette } = await dist("cassette/prune.js");
  const { mergeCassettes } = await dist("cassette/merge.js");
  const { openAtomicFile } = await dist("util/atomic-file.js");
  const { copyRange } = await dist("cassette/safe-files.js");
  const scratch = mkdtempSync(path.join(os.tmpdir(), "cua-bench-writers-"));
  try {
    const base = path.join(scratch, "base");
    const events = generate(base, mb * 1024 * 1024);
    const file = path.join(base, "cassette.jsonl");
    const size = statSync(file).size;
    const log = path.join(scratch, "used.jsonl");
    const used = [];
    for (let seq = 1; seq < events; seq += 2)
      used.push(
        JSON.stringify({
          type: "request",
          n: used.length,
          t_ms: 0,
          transport: "cli",
          method: "call",
          tool: "get_screen_size",
          kind: "read",
          epoch_before: 0,
          epoch_after: 0,
          outcome: "replayed",
          matched_seq: seq,
        }),
      );
    used.push(JSON.stringify({ type: "summary", t_ms: 1, served: used.length, unmatched: 0, faults: 0, unused: [] }));
    writeFileSync(log, `${used.join("\n")}\n`);
    const { readReplayLogs } = await dist("cassette/read-replay-logs.js");
    const logs = readReplayLogs([log]);
    const runs = Number(process.env.CUA_BENCH_WRITERS_RUNS ?? 3);
    // every timed write starts with nothing of an earlier one left to flush
    const settle = () => execFileSync("sync");
    let k = 0;
    const next = (stem) => path.join(scratch, `${stem}${k++}`);
    const atomicCopy = (from) => {
      const to = next("w");
      const t = time(() => {
        const w = openAtomicFile({ file: to });
        copyRange({ from, start: 0, end: statSync(from).size, write: (b) => w.write(b) });
        w.commit();
      });
      rmSync(to);
      return t;
    };
    const plainCopy = (from) => {
      const to = next("copy");
      const t = time(() => copyFile(from, to));
      rmSync(to);
      return t;
    };
    /** Paired runs of a plain copy and the atomic write of the same file, taking turns at going first. */
    const paired = (from) => {
      const ratios = [];
      const plain = [];
      const atomic = [];
      for (let i = 0; i < runs; i++) {
        const order = i % 2 === 0 ? ["plain", "atomic"] : ["atomic", "plain"];
        const got = {};
        for (const which of order) {
          settle();
          got[which] = which === "plain" ? plainCopy(from) : atomicCopy(from);
        }
        plain.push(got.plain);
        atomic.push(got.atomic);
        ratios.push(got.atomic / got.plain);
      }
      return { plain: median(plain), atomic: median(atomic), ratio: median(ratios) };
    };
    const whole = { prune: [], merge: [], copyIn: [], copyMerged: [] };
    // the CPU time of the whole commands (user + system), which the machine's load does not stretch
    const cpu = { prune: [], merge: [] };
    const timeCpu = (key, fn) => {
      const before = process.cpuUsage();
      const ms = time(fn);
      const used = process.cpuUsage(before);
      cpu[key].push((used.user + used.system) / 1000);
      return ms;
    };
    let prunedDir;
    let mergedDir;
    for (let i = 0; i < runs; i++) {
      settle();
      whole.copyIn.push(plainCopy(file));
      if (prunedDir) rmSync(prunedDir, { recursive: true });
      prunedDir = next("pruned");
      settle();
      whole.prune.push(timeCpu("prune", () => pruneCassette({ dir: base, logs, out: prunedDir })));
      if (mergedDir) rmSync(mergedDir, { recursive: true });
      mergedDir = next("merged");
      settle();
      whole.merge.push(timeCpu("merge", () => mergeCassettes({ a: base, b: base, out: mergedDir })));
      settle();
      whole.copyMerged.push(plainCopy(path.join(mergedDir, "cassette.jsonl")));
    }
    const pruneWrite = paired(path.join(prunedDir, "cassette.jsonl"));
    const mergeWrite = paired(path.join(mergedDir, "cassette.jsonl"));
    const m = Object.fromEntries(Object.entries(whole).map(([key, v]) => [key, median(v)]));
    const row = (label, ms, base, r, target) => `| ${label} | ${fmt(ms, 0)} | ${fmt(base, 0)} | ${fmt(r)} | ≤ ${target} | ${r <= target ? "pass" : "miss"} |`;
    const mib = (f) => fmt(statSync(f).size / 1024 / 1024, 0);
    return [
      `Cassette: ${fmt(size / 1024 / 1024, 0)} MiB, ${events} events (~8 KiB each), one frame; prune keeps every other call (${mib(path.join(prunedDir, "cassette.jsonl"))} MiB out), merge appends it to itself (${mib(path.join(mergedDir, "cassette.jsonl"))} MiB out). The disk is the machine's own (ext4 on a shared virtual disk: fsync times vary run to run), \`sync\` before each timed write. Write rows: ${runs} paired runs taking turns at going first, ratio = median of the per-pair ratios. Whole-command rows: median of ${runs} runs; of their wall time, prune used ${fmt(median(cpu.prune), 0)} ms of CPU and merge ${fmt(median(cpu.merge), 0)} ms (median). Load of the machine (1-minute average, ${os.availableParallelism()} cores shared with other work): ${fmt(loadBefore, 1)} at the start, ${fmt(os.loadavg()[0], 1)} at the end.`,
      "",
      "| measure | ms | plain copy ms | ÷ copy | target | result |",
      "| --- | ---: | ---: | ---: | --- | --- |",
      row("prune --out: the atomic write of its output, ÷ a plain copy of those bytes", pruneWrite.atomic, pruneWrite.plain, pruneWrite.ratio, 1.5),
      row("merge --out: the atomic write of its output, ÷ a plain copy of those bytes", mergeWrite.atomic, mergeWrite.plain, mergeWrite.ratio, 1.5),
      row(
        "prune --out, whole command (one pass: read + validate every line, write the kept ones), ÷ copying the input",
        m.prune,
        m.copyIn,
        m.prune / m.copyIn,
        1.5,
      ),
      row(
        "merge --out, whole command (checks A and B, then copies A's lines and B's with their numbers moved), ÷ copying the output",
        m.merge,
        m.copyMerged,
        m.merge / m.copyMerged,
        1.5,
      ),
      "",
      "A plain copy reads 1 MiB blocks and writes them to a new file, then fsyncs it. The atomic write does the same into a temp file beside the target with every write checked, then renames it over the target and fsyncs the folder: the first two rows are what making the write safe costs. The whole commands also read every line of their input as JSON and check it against the cassette schema (compiled once from the JSON Schema, decision 0230), which is CPU work a copy does not do: on a busy machine, or a disk faster than the parse, that is what a whole-command row above the target is made of. Prune does it in the pass that writes its output (decision 0250); merge checks A and B, then copies A's lines and B's with only their leading numbers rewritten (not parsed and written again).",
    ].join("\n");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
