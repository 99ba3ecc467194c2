// Small timing helpers shared by the benchmarks.
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
