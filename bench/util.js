// Small timing helpers shared by the benchmarks.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs `fn` `warmup` times, then `runs` times, and returns each timed run's milliseconds. */
export async function timeRuns(fn, { runs = 20, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times;
}

/** Interleaves the measured functions run by run so machine noise hits them alike. */
export async function timeInterleaved(fns, { runs = 20, warmup = 3 } = {}) {
  const names = Object.keys(fns);
  for (let i = 0; i < warmup; i++) for (const n of names) await fns[n]();
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) {
    for (const n of names) {
      const t = performance.now();
      await fns[n]();
      times[n].push(performance.now() - t);
    }
  }
  return times;
}

export const fmt = (n, digits = 2) => Number(n).toFixed(digits);

const resultsUrl = new URL("RESULTS.md", import.meta.url);
const HEADING = "# Benchmark results\n\nLatest figures from `npm run bench`. Ratios are measured within one run; absolute times are for orientation only.\n";

/** Puts one benchmark's section into bench/RESULTS.md (re-read first, so a run elsewhere keeps its own). */
export function writeResultsSection({ name, title, seconds, body }) {
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`;
  const section = `<!-- bench:${name} -->\n## ${title}\n\n_${new Date().toISOString().slice(0, 10)}, ${machine}, ${seconds.toFixed(1)} s_\n\n${body.trim()}\n<!-- /bench:${name} -->`;
  let results = existsSync(resultsUrl) ? readFileSync(resultsUrl, "utf8") : HEADING;
  const re = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
  results = re.test(results) ? results.replace(re, section) : `${results.trimEnd()}\n\n${section}\n`;
  writeFileSync(resultsUrl, results);
  return section;
}
