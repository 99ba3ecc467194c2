#!/usr/bin/env node
// Runs a fixed set of commands over the bundled recordings and scenarios and writes what each printed
// (stdout, stderr, exit status) into one folder, with timings and the checkout's path taken out, so that
// two checkouts' snapshots can be compared byte for byte: `diff -r A B`. A refactor that keeps behaviour
// leaves the snapshot unchanged (docs/architecture.md).
//
//   npm run build && node scripts/behaviour-snapshot.mjs OUT_DIR
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2];
if (!out) {
  console.error("usage: node scripts/behaviour-snapshot.mjs OUT_DIR (after npm run build)");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const scratch = mkdtempSync(path.join(tmpdir(), "cua-snapshot-"));

const mutants = ["resend-timed-out-click", "never-rebuild-session", "unverifiable-is-done", "trust-empty-window-list", "raw-key-combo", "ignore-frame-lease"];
const runs = [
  ["check", ["check", "--json"]],
  ...mutants.map((m) => [`check-${m}`, ["check", "--json", "--harness", m]]),
  ["fuzz-seed-1", ["fuzz", "--seed", "1", "--runs", "300", "--json"]],
  ["fuzz-field-seed-7", ["fuzz", "--seed", "7", "--runs", "200", "--field-faults", "--json"]],
  ["fuzz-mutants-seed-1", ["fuzz", "--mutants", "--seed", "1", "--runs", "60", "--json"]],
  ["check-report", ["check", "--report", path.join(scratch, "check.html")], path.join(scratch, "check.html")],
  ...["gtk3-demo-cli", "gtk3-demo-mcp"].flatMap((r) => [
    [`inspect-${r}`, ["inspect", `recordings/${r}`, "--json"]],
    [`report-${r}`, ["report", `recordings/${r}`, "--out", path.join(scratch, `${r}.html`)], path.join(scratch, `${r}.html`)],
  ]),
  ...readdirSync(path.join(root, "contracts/scenarios/cassettes")).map((c) => [
    `inspect-scenario-${c}`,
    ["inspect", `contracts/scenarios/cassettes/${c}`, "--json"],
  ]),
];

// Wall-clock figures and where the checkout lives are the only things allowed to differ.
const normalize = (text) =>
  text
    .split(root)
    .join("<root>")
    .split(scratch)
    .join("<scratch>")
    .replace(/"(duration_ms|elapsed_ms|wall_ms|ms_per_run|generated_at|at)": ?[^,\n}]+/g, '"$1": <t>')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, "<t>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>");

for (const [name, args, file] of runs) {
  const r = spawnSync(process.execPath, ["bin/cua-contract.js", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, CI: "", NO_COLOR: "1", FORCE_COLOR: "0" },
    maxBuffer: 1 << 28,
  });
  let text = `$ cua-contract ${args.join(" ")}\n# exit ${r.status}\n# stdout\n${r.stdout}\n# stderr\n${r.stderr}`;
  if (file) text += `\n# ${path.basename(file)}\n${readFileSync(file, "utf8")}`;
  writeFileSync(path.join(out, `${name}.txt`), normalize(text));
  console.log(`${name}: exit ${r.status}`);
}
rmSync(scratch, { recursive: true, force: true });
