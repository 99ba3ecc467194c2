#!/usr/bin/env node
// Runs the benchmarks in bench/*.bench.js (all, or those named on the command line) one after
// another and prints each one's section. With --write, also rewrites that section of
// bench/RESULTS.md (a tracked file: only when asked). A bench module exports `name`, `title` and
// `run()`, which resolves to Markdown (figures measured in that one run). The scaling benchmark is
// separate: `npm run bench:scale`.
import { readdirSync } from "node:fs";
import { writeResultsSection } from "./util.js";

const dir = new URL("./", import.meta.url);
const write = process.argv.includes("--write");
const wanted = process.argv.slice(2).filter((a) => a !== "--write");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.js"))
  .sort()
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));
if (files.length === 0) {
  console.error(
    `no benchmark matches ${wanted.join(", ")}; have: ${readdirSync(dir)
      .filter((f) => f.endsWith(".bench.js"))
      .join(", ")}`,
  );
  process.exit(2);
}
for (const file of files) {
  const mod = await import(new URL(file, dir).href);
  process.stderr.write(`bench: ${mod.name} …\n`);
  const started = Date.now();
  const body = await mod.run();
  const seconds = (Date.now() - started) / 1000;
  if (write) console.log(writeResultsSection({ name: mod.name, title: mod.title, seconds, body }));
  else console.log(`## ${mod.title}\n\n_${seconds.toFixed(1)} s_\n\n${body.trim()}\n`);
}
if (!write) process.stderr.write("bench: bench/RESULTS.md left as it was (pass --write to update it)\n");
