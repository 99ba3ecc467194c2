#!/usr/bin/env node
// Runs the benchmarks in bench/*.bench.js (all, or those named on the command line) one after
// another and rewrites each one's section of bench/RESULTS.md. A bench module exports
// `name`, `title` and `run()`, which resolves to Markdown (figures measured in that one run).
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";

const dir = new URL("./", import.meta.url);
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.js"))
  .sort()
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(", ")}; have: ${readdirSync(dir).filter((f) => f.endsWith(".bench.js")).join(", ")}`);
  process.exit(2);
}
const resultsUrl = new URL("RESULTS.md", dir);
const HEADING =
  "# Benchmark results\n\nLatest figures from `npm run bench`. Ratios are measured within one run; absolute times are for orientation only.\n";
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`;
for (const file of files) {
  const mod = await import(new URL(file, dir).href);
  process.stderr.write(`bench: ${mod.name} …\n`);
  const started = Date.now();
  const body = await mod.run();
  const section = `<!-- bench:${mod.name} -->\n## ${mod.title}\n\n_${new Date().toISOString().slice(0, 10)}, ${machine}, ${((Date.now() - started) / 1000).toFixed(1)} s_\n\n${body.trim()}\n<!-- /bench:${mod.name} -->`;
  // Re-read before each write so a bench run elsewhere in the meantime keeps its section.
  let results = existsSync(resultsUrl) ? readFileSync(resultsUrl, "utf8") : HEADING;
  const re = new RegExp(`<!-- bench:${mod.name} -->[\\s\\S]*?<!-- /bench:${mod.name} -->`);
  results = re.test(results) ? results.replace(re, section) : `${results.trimEnd()}\n\n${section}\n`;
  writeFileSync(resultsUrl, results);
  console.log(section);
}
