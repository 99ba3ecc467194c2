#!/usr/bin/env node
// `npm run record:fixtures`: re-records the bundled real recordings in recordings/ from the
// published runtime (@trycua/cua-driver) on a throwaway desktop, and rewrites recordings/README.md.
// `npm run record:fixtures -- cli` (or `mcp`, `probes`) re-records only those; the README still
// lists every recording, read from disk. Re-recording gtk3-demo-mcp changes the pid, window id and
// element tokens the real scenarios name (docs/scenarios.md): they are carried over into
// contracts/scenarios/ (scripts/record-fixtures.ids.mjs); commit both in the same change.
// Needs a built dist/ (the npm script builds first) and the desktop packages (docs/desktop.md).
// Tracked files change only with `--write`: without it, everything is recorded into a fresh temp
// folder (named at the end) and recordings/ and contracts/scenarios/ stay as they are.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { harnessCalls, idChanges, updateScenarios } from "./record-fixtures.ids.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const write = process.argv.includes("--write");
const tracked = path.join(root, "recordings");
const recordings = write ? tracked : mkdtempSync(path.join(os.tmpdir(), "cua-record-fixtures-"));
// A part not re-recorded is listed from the tracked copy.
const current = (name) => (existsSync(path.join(recordings, name)) ? path.join(recordings, name) : path.join(tracked, name));
const cli = path.join(root, "bin", "cua-contract.js");
const harness = path.join(root, "scripts", "record-fixtures.harness.mjs");
const scenarios = path.join(root, "contracts", "scenarios");
const { DEFAULT_SDK_VERSION, publishedSdkVersions } = await import(path.join(root, "dist", "runtime", "load.js"));

const run = (args) => {
  process.stderr.write(`record-fixtures: cua-contract ${args.join(" ")}\n`);
  execFileSync(process.execPath, [cli, ...args], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
};

const known = ["cli", "mcp", "probes"];
const only = process.argv.slice(2).filter((a) => a !== "--write");
for (const a of only)
  if (!known.includes(a)) throw new Error(`record-fixtures: unknown part ${JSON.stringify(a)}; give any of ${known.join(", ")} (none: all)`);
const wanted = (part) => only.length === 0 || only.includes(part);
const pinned = DEFAULT_SDK_VERSION;
const newest = wanted("probes") ? (await publishedSdkVersions()).at(-1) : undefined;
const lines = [];

for (const transport of ["cli", "mcp"]) {
  const out = path.join(recordings, `gtk3-demo-${transport}`);
  const trackedCassette = path.join(tracked, `gtk3-demo-${transport}`, "cassette.jsonl");
  const before = existsSync(trackedCassette) ? harnessCalls(readFileSync(trackedCassette, "utf8")) : undefined;
  if (wanted(transport)) {
    run(["record", "--driver", `sdk:${pinned}`, "--desktop", "--force", "--out", out, "--", process.execPath, harness, transport]);
    if (before)
      carryIds({
        before,
        after: harnessCalls(readFileSync(path.join(out, "cassette.jsonl"), "utf8")),
        cassetteDir: path.join(tracked, `gtk3-demo-${transport}`),
      });
  }
  const events =
    readFileSync(path.join(current(`gtk3-demo-${transport}`), "cassette.jsonl"), "utf8")
      .trim()
      .split("\n").length - 1;
  lines.push(
    `| \`gtk3-demo-${transport}/\` | ${transport === "cli" ? "per-call CLI" : "MCP stdio (one `cua-driver mcp` session)"} | ` +
      `\`cua-contract record --driver sdk:${pinned} --desktop -- node scripts/record-fixtures.harness.mjs ${transport}\`: ` +
      `start_session with a label (named on every call that takes one), list_windows, get_window_state${transport === "cli" ? " with --screenshot-out-file" : " (inline PNG)"}, type_text (foreground), ` +
      `a re-read (list_windows + get_window_state) after each action, click by element token, press_key refused background_unavailable, the old token refused stale_element_token then a re-read, ` +
      `verify_state, set_window_frame and a re-read of the moved window, end_session, a click refused session_ended, start_session revived, a last re-read (${events} events` +
      `${existsSync(path.join(current(`gtk3-demo-${transport}`), "probe.json")) ? "; `probe.json` taken while recording" : ""}) |`,
  );
}
// Without `probes`, the snapshots on disk are listed as they are; the newest is the highest version there.
const onDisk = readdirSync(tracked)
  .map((f) => /^probe-sdk-(.+)\.json$/.exec(f)?.[1])
  .filter(Boolean);
const versions = wanted("probes") ? [...new Set([pinned, newest])] : onDisk.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
const latest = newest ?? versions.at(-1);
for (const version of versions) {
  const file = path.join(recordings, `probe-sdk-${version}.json`);
  if (wanted("probes")) run(["probe", "--sdk", version, "--save", file]);
  lines.push(
    `| \`probe-sdk-${version}.json\` | probe snapshot | \`cua-contract probe --sdk ${version} --save recordings/probe-sdk-${version}.json\`${version === latest ? " (the newest published version)" : " (the version this project pins)"} |`,
  );
}

const readme = `# Bundled real recordings

Recorded from the published cua-driver runtime (\`@trycua/cua-driver\`, Linux x64, in process) on a
throwaway desktop (Xvfb 1280x800, openbox, at-spi, \`gtk3-demo\`; see docs/desktop.md), with
redaction on (typed text is stored as \`«redacted:text:…»\`) and images stored once under
\`frames/<sha256>\`. A cassette's \`probe.json\` is the capability snapshot of the runtime taken while
recording (its sha256 is the header's \`driver.probe_sha256\`). Every cassette header says \`driver.source: "sdk"\`; what the SDK backend renders
differently from a \`cua-driver\` binary is listed in docs/discoveries/sdk-backend.md.
Re-record them all with \`npm run record:fixtures -- --write\` (add \`cli\`, \`mcp\` or \`probes\` for one part;
without \`--write\` it records into a temp folder and changes no tracked file;
re-recording \`gtk3-demo-mcp\` gives the app a new pid, window id and element tokens; the scenarios
that replay it are updated to the new ones; 14 of the 17 scenarios replay it, see docs/scenarios.md). Replay one to the same harness with
\`node bin/cua-contract.js replay recordings/gtk3-demo-cli -- node scripts/record-fixtures.harness.mjs cli\`
(replay redacts the live typed text the same way before matching, so it matches the stored placeholder).

| recording | transport | how it was made |
| --- | --- | --- |
${lines.join("\n")}
`;
writeFileSync(path.join(recordings, "README.md"), readme);

/** The scenarios replaying a re-recorded cassette follow its new pid, window id and tokens. */
function carryIds({ before, after, cassetteDir }) {
  const { changes, problem } = idChanges(before, after);
  if (!write) {
    if (!problem && [...changes].length > 0)
      process.stderr.write(
        `record-fixtures: with --write, the scenarios replaying ${path.relative(root, cassetteDir)} would follow: ${[...changes].map(([a, b]) => `${a} → ${JSON.stringify(b)}`).join(", ")}\n`,
      );
    return;
  }
  if (problem) {
    process.stderr.write(`record-fixtures: ${problem}; update the scenarios in contracts/scenarios/ that replay ${path.relative(root, cassetteDir)} by hand\n`);
    return;
  }
  for (const file of updateScenarios({ dir: scenarios, cassetteDir, changes })) {
    process.stderr.write(`record-fixtures: ${path.relative(root, file)}: ${[...changes].map(([a, b]) => `${a} → ${JSON.stringify(b)}`).join(", ")}\n`);
  }
}
if (!existsSync(path.join(current("gtk3-demo-cli"), "cassette.jsonl"))) process.exitCode = 1;
if (!write)
  process.stderr.write(`record-fixtures: recorded into ${recordings}; recordings/ and contracts/scenarios/ are unchanged (pass --write to replace them)\n`);
