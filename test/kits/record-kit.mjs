#!/usr/bin/env node
// Records a kit's program live: `node test/kits/record-kit.mjs NAME` runs the command in
// test/kits/NAME/kit.json under `cua-contract record --driver sdk:0.21.0 --desktop` (the published
// runtime on a throwaway Xvfb desktop with gtk3-demo, docs/desktop.md), replaces
// test/kits/NAME/recording/ and writes the live run's exit code and output to live.json (the kit's
// own directory shown as <kit>). Needs the desktop's Debian packages and the runtime from npm.
import { spawnSync } from "node:child_process";
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const kits = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(kits, "../..");
const name = process.argv[2];
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  console.error("usage: node test/kits/record-kit.mjs NAME (a directory under test/kits/ with a kit.json)");
  process.exit(2);
}
const dir = path.join(kits, name);
let spec;
try {
  spec = JSON.parse(readFileSync(path.join(dir, "kit.json"), "utf8"));
} catch (error) {
  console.error(`test/kits/${name}/kit.json: ${error.message}. Name a kit directory that holds a kit.json.`);
  process.exit(2);
}
const env = Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
const args = [
  path.join(root, "bin/cua-contract.js"),
  "record",
  "--driver",
  "sdk:0.21.0",
  "--desktop",
  "--force",
  "--out",
  path.join(dir, "recording"),
  "--",
  "env",
  ...env,
  ...spec.command,
];
const run = spawnSync(process.execPath, args, { cwd: path.join(dir, spec.cwd), encoding: "utf8", timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
if (run.error) {
  console.error(`record failed to run: ${run.error.message}`);
  process.exit(1);
}
const relative = (text) => text.split(dir).join("<kit>");
const live = { exitCode: run.status, stdout: relative(run.stdout), stderr: relative(run.stderr), recorded_at: new Date().toISOString() };
// written beside, flushed, then renamed over the old one
const file = path.join(dir, "live.json");
const temp = `${file}.${process.pid}.tmp`;
const fd = openSync(temp, "w", 0o644);
writeSync(fd, `${JSON.stringify(live, null, 2)}\n`);
fsyncSync(fd);
closeSync(fd);
renameSync(temp, file);
process.stdout.write(`${name}: live run exited ${run.status}; recording in test/kits/${name}/recording, outcome in test/kits/${name}/live.json\n`);
