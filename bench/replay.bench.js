// Replay cost, three ways, each as a ratio measured in this one run:
// (a) a per-call replay through the CLI shim vs the spawn floor (`node -e 0`);
// (b) MCP tools/call round trips/s through `serve --transport mcp` vs the same SDK client against a
//     trivial SDK echo server; (b'') the same in the 2026-07-28 era vs the legacy era, the official
//     client 2.x against one 0.28.2 recording; (c) in-process createReplayer calls/s vs the real
//     runtime's callTool.
import { execFile } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransport2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { systemClock } from "../dist/public/harness.js";
import { createReplayBackend, createReplayer, createReplaySession, loadReplayCassette } from "../dist/public/replay.js";
import { startShimServer } from "../dist/shim-server/index.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "replay";
export const title = "Replay cost: CLI shim, MCP server, in-process replayer";

const root = fileURLToPath(new URL("..", import.meta.url));
const CLI_CASSETTE = path.join(root, "test/fixtures/cassettes/replay-cli-gtk");
const MCP_CASSETTE = path.join(root, "test/fixtures/cassettes/replay-mcp-gtk");
const ERAS_CASSETTE = path.join(root, "test/fixtures/cassettes/mcp-sdk-0.28.2-eras");
const cliPath = path.join(root, "bin/cua-contract.js");

const exec = (file, args) =>
  new Promise((resolve, reject) => execFile(file, args, { encoding: "buffer" }, (err) => (err && typeof err.code !== "number" ? reject(err) : resolve())));

async function perCall(shim) {
  const session = createReplaySession({ cassette: loadReplayCassette(CLI_CASSETTE), clock: systemClock });
  const server = await startShimServer({ backend: createReplayBackend({ session }), shim });
  try {
    const t = await timeInterleaved(
      {
        floor: () => exec(process.execPath, ["-e", "0"]),
        replay: () => exec(server.shimPath, ["call", "get_screen_size", "{}"]),
      },
      { runs: 30, warmup: 3 },
    );
    return { floor: median(t.floor), replay: median(t.replay), kind: server.shimKind };
  } finally {
    await server.close();
  }
}

const ECHO_SERVER = `
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const server = new McpServer({ name: "echo", version: "1.0.0" });
server.registerTool("list_windows", { description: "echo" }, async () => ({ content: [{ type: "text", text: "Found 0 windows:" }], structuredContent: { windows: [] } }));
await server.connect(new StdioServerTransport());
`;

/** `tools/call list_windows` round trips per second on a connected client, after 20 to warm up. */
async function listWindowsPerSecond(client, calls) {
  for (let i = 0; i < 20; i++) await client.callTool({ name: "list_windows", arguments: {} });
  const t = performance.now();
  for (let i = 0; i < calls; i++) await client.callTool({ name: "list_windows", arguments: {} });
  return (calls / (performance.now() - t)) * 1000;
}

async function roundTrips(transportOptions, calls) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ ...transportOptions, stderr: "ignore", cwd: root }));
  try {
    return await listWindowsPerSecond(client, calls);
  } finally {
    await client.close();
  }
}

async function mcp() {
  const replay = [];
  const echo = [];
  for (let round = 0; round < 5; round++) {
    replay.push(await roundTrips({ command: process.execPath, args: [cliPath, "serve", MCP_CASSETTE, "--transport", "mcp"] }, 500));
    echo.push(await roundTrips({ command: process.execPath, args: ["--input-type=module", "-e", ECHO_SERVER] }, 500));
  }
  return { replay: median(replay), echo: median(echo) };
}

/** tools/call round trips/s of the official client 2.x in one era against `serve` of the 0.28.2 recording. */
async function eraRoundTrips(mode, calls) {
  const client = new Client2({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode } });
  const transport = new StdioClientTransport2({
    command: process.execPath,
    args: [cliPath, "serve", ERAS_CASSETTE, "--transport", "mcp"],
    stderr: "ignore",
    cwd: root,
  });
  await client.connect(transport);
  try {
    if (client.getProtocolEra() !== (mode === "legacy" ? "legacy" : "modern")) throw new Error(`the client ended in the ${client.getProtocolEra()} era`);
    return await listWindowsPerSecond(client, calls);
  } finally {
    await client.close();
  }
}

export async function eras() {
  const modern = [];
  const legacy = [];
  // the order alternates, so neither era always runs on a warmer machine
  for (let round = 0; round < 7; round++) {
    const pair = [() => eraRoundTrips({ pin: "2026-07-28" }, 500).then((r) => modern.push(r)), () => eraRoundTrips("legacy", 500).then((r) => legacy.push(r))];
    for (const run of round % 2 === 0 ? pair : pair.reverse()) await run();
  }
  return { modern: median(modern), legacy: median(legacy) };
}

async function inProcess() {
  const cassette = loadReplayCassette(MCP_CASSETTE);
  const { CuaDriver } = await import("@trycua/cua-driver");
  const driver = await CuaDriver.create();
  const rate = async (fn, ms = 700) => {
    for (let i = 0; i < 50; i++) await fn();
    let n = 0;
    const t = performance.now();
    while (performance.now() - t < ms) {
      await fn();
      n++;
    }
    return (n / (performance.now() - t)) * 1000;
  };
  const replayRates = [];
  const sdkRates = [];
  for (let round = 0; round < 3; round++) {
    const replayer = createReplayer({ cassette });
    replayRates.push(await rate(() => replayer.call("list_windows", {})));
    sdkRates.push(await rate(() => driver.callTool("get_cursor_position", "{}")));
  }
  return { replay: median(replayRates), sdk: median(sdkRates) };
}

const verdict = (ok) => (ok ? "pass" : "miss");

export async function run() {
  const a = await perCall("auto");
  const a2 = await perCall("node");
  const ra2 = a2.replay / a2.floor;
  const b = await mcp();
  const e = await eras();
  const c = await inProcess();
  const ra = a.replay / a.floor;
  const rb = b.replay / b.echo;
  const rc = c.replay / c.sdk;
  const re = e.modern / e.legacy;
  return `
| measure | replay | baseline | ratio | target | result |
| --- | ---: | ---: | ---: | --- | --- |
| (a) per-call CLI replay (${a.kind} shim, \`call get_screen_size\`), median ms ÷ \`node -e 0\` | ${fmt(a.replay, 1)} ms | ${fmt(a.floor, 1)} ms | ${fmt(ra)} | ≤ 1.3 | ${verdict(ra <= 1.3)} |
| (a') the same with the dependency-free Node shim (used when no C compiler is present) | ${fmt(a2.replay, 1)} ms | ${fmt(a2.floor, 1)} ms | ${fmt(ra2)} | ≤ 1.3 | ${verdict(ra2 <= 1.3)} |
| (b) MCP tools/call round trips/s, SDK client → \`serve --transport mcp\` ÷ SDK echo server | ${fmt(b.replay, 0)}/s | ${fmt(b.echo, 0)}/s | ${fmt(rb)} | ≥ 0.8 | ${verdict(rb >= 0.8)} |
| (b'') MCP tools/call round trips/s in the 2026-07-28 era ÷ the legacy era (client 2.x pinned vs legacy, \`serve\` of the 0.28.2 recording) | ${fmt(e.modern, 0)}/s | ${fmt(e.legacy, 0)}/s | ${fmt(re)} | ≥ 0.9 | ${verdict(re >= 0.9)} |
| (c) in-process \`createReplayer\` calls/s (list_windows) ÷ real runtime \`callTool("get_cursor_position")\` (headless) | ${fmt(c.replay, 0)}/s | ${fmt(c.sdk, 0)}/s | ${fmt(rc, 1)} | ≥ 5 | ${verdict(rc >= 5)} |

(a) median of 30 interleaved spawns; (b) median of 5 rounds of 500 sequential calls each, alternating servers; (b'') median of 7 rounds, alternating which era goes first; (c) median of 3 alternating 0.7 s rounds.
`;
}
