#!/usr/bin/env node
// `npm run record:fixtures`: re-records the bundled real recordings in recordings/ from the
// published runtime (@trycua/cua-driver) on a throwaway desktop, and rewrites recordings/README.md.
// Needs a built dist/ (the npm script builds first) and the desktop packages (docs/desktop.md).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const recordings = path.join(root, "recordings");
const cli = path.join(root, "bin", "cua-contract.js");
const harness = path.join(root, "scripts", "record-fixtures.harness.mjs");
const { DEFAULT_SDK_VERSION, publishedSdkVersions } = await import(path.join(root, "dist", "transports", "sdk", "load.js"));

const run = (args) => {
  process.stderr.write(`record-fixtures: cua-contract ${args.join(" ")}\n`);
  execFileSync(process.execPath, [cli, ...args], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
};

const pinned = DEFAULT_SDK_VERSION;
const newest = (await publishedSdkVersions()).at(-1);
const lines = [];

for (const transport of ["cli", "mcp"]) {
  const out = path.join(recordings, `gtk3-demo-${transport}`);
  run(["record", "--driver", `sdk:${pinned}`, "--desktop", "--force", "--out", out, "--", process.execPath, harness, transport]);
  const events = readFileSync(path.join(out, "cassette.jsonl"), "utf8").trim().split("\n").length - 1;
  lines.push(
    `| \`gtk3-demo-${transport}/\` | ${transport === "cli" ? "per-call CLI" : "MCP stdio (one `cua-driver mcp` session)"} | ` +
      `\`cua-contract record --driver sdk:${pinned} --desktop -- node scripts/record-fixtures.harness.mjs ${transport}\`: ` +
      `list windows, get_window_state${transport === "cli" ? " with --screenshot-out-file" : " (inline PNG)"}, click by element token, type_text (foreground), ` +
      `press_key refused background_unavailable, re-snapshot then the old token refused stale_element_token, verify_state, set_window_frame, list_windows readback (${events} events) |`,
  );
}
for (const version of [...new Set([pinned, newest])]) {
  const file = path.join(recordings, `probe-sdk-${version}.json`);
  run(["probe", "--sdk", version, "--save", file]);
  lines.push(`| \`probe-sdk-${version}.json\` | probe snapshot | \`cua-contract probe --sdk ${version} --save recordings/probe-sdk-${version}.json\`${version === newest ? " (the newest published version)" : " (the version this project pins)"} |`);
}

const readme = `# Bundled real recordings

Recorded from the published cua-driver runtime (\`@trycua/cua-driver\`, Linux x64, in process) on a
throwaway desktop (Xvfb 1280x800, openbox, at-spi, \`gtk3-demo\`; see docs/desktop.md), with
redaction on (typed text is stored as \`«redacted:text:…»\`) and images stored once under
\`frames/<sha256>\`. Each cassette holds \`probe.json\`, the capability snapshot of the runtime taken
while recording (its sha256 is the header's \`driver.probe_sha256\`). Every cassette header says \`driver.source: "sdk"\`; what the SDK backend renders
differently from a \`cua-driver\` binary is listed in docs/discoveries/sdk-backend.md.
Re-record them all with \`npm run record:fixtures\`. Replay one to the same harness with
\`node bin/cua-contract.js replay recordings/gtk3-demo-cli --ignore text -- node scripts/record-fixtures.harness.mjs cli\`
(\`--ignore text\`: the typed text is stored redacted, so the live text cannot match it byte for byte).

| recording | transport | how it was made |
| --- | --- | --- |
${lines.join("\n")}
`;
writeFileSync(path.join(recordings, "README.md"), readme);
if (!existsSync(path.join(recordings, "gtk3-demo-cli", "cassette.jsonl"))) process.exitCode = 1;
