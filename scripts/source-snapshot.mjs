#!/usr/bin/env node
// Builds the probe snapshot of a roster read from cua-driver's source (docs/decisions/0255):
//   npm run build && node scripts/source-snapshot.mjs [ROSTER] [--platform linux] [--out FILE]
// ROSTER defaults to the newest roster in docs/reference/ (docs/reference/cua-driver-roster-source-bf3affc1.json
// today); the snapshot goes to contracts/snapshots/, named by the commit's first 8 hex digits
// (contracts/snapshots/source-bf3affc1.probe.json). Its time is the roster file's last commit, so a
// rerun writes the same bytes.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { SourceRosterSchema, sourceSnapshotOf } = await import(path.join(root, "dist", "probe", "source-snapshot.js"));
const { writeFileAtomic } = await import(path.join(root, "dist", "util", "atomic-file.js"));

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [value] = args.splice(i, 2).slice(1);
  if (!value) fail(`${name} needs a value`);
  return value;
};
function fail(message) {
  process.stderr.write(`source-snapshot: ${message}\n`);
  process.exit(2);
}

const platform = flag("--platform") ?? "linux";
const out = flag("--out");
const reference = path.join(root, "docs", "reference");
const roster =
  args[0] ??
  readdirSync(reference)
    .filter((f) => /^cua-driver-roster-source-.*\.json$/.test(f))
    .map((f) => path.join(reference, f))
    .at(-1);
if (!roster) fail("no roster: pass docs/reference/cua-driver-roster-source-<commit>.json");

let value;
try {
  value = JSON.parse(readFileSync(roster, "utf8"));
} catch (error) {
  fail(`${roster}: ${error.message}; pass a roster JSON file`);
}
const parsed = SourceRosterSchema.safeParse(value);
if (!parsed.success) {
  const issue = parsed.error.issues[0];
  fail(`${roster}: field ${issue.path.join(".") || "(root)"}: ${issue.message}; see docs/reference/cua-driver-roster-source-bf3affc1.json for the shape`);
}
const at = execFileSync("git", ["log", "-1", "--format=%cI", "--", roster], { cwd: root, encoding: "utf8" }).trim();
if (!at) fail(`${roster} is not committed: commit it first, its commit time is the snapshot's time`);
let snapshot;
try {
  snapshot = sourceSnapshotOf(parsed.data, { platform, at: new Date(at).toISOString() });
} catch (error) {
  fail(`${roster}: ${error.message}`);
}
const file = out ?? path.join(root, "contracts", "snapshots", `source-${parsed.data.provenance.commit.slice(0, 8)}.probe.json`);
writeFileAtomic({ file, data: `${JSON.stringify(snapshot, null, 2)}\n`, mode: 0o644, field: "--out" });
process.stdout.write(
  `wrote ${path.relative(process.cwd(), file)}: ${snapshot.list_tools.length} tools for ${platform}, read from ${snapshot.driver.location}\n`,
);
