// `replay --record-missing` over MCP of a 0.28.2 recording, with the 0.28.2 runtime live (read-only
// tools only, so no desktop): every line a client of either era sends is answered as a plain replay
// of the same cassette answers it (the era decided per request, the modern envelope on recorded
// answers, server/discover, ping and the skills built as replay builds them, the era's refusals),
// and a missing call is answered live, in its era, and added byte for byte; the grown cassette then
// replays it with nothing unmatched. Once with raw JSON-RPC lines, once with the official client 2.x
// in `auto` mode (a sibling probe stream, then the session) and pinned to 2026-07-28.
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { sdkUnavailable } from "../helpers/sdk-available.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const skip = await sdkUnavailable("0.28.2");
if (skip) console.warn(`\n!!! ${skip}\n`);

const V28 = path.join(repoRoot, "test/fixtures/cassettes/mcp-sdk-0.28.2-eras");
const LINES = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
const CLIENT2 = path.join(repoRoot, "test/e2e/replay/mcp-client2.mjs");
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const ENVELOPE = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"cua-driver","version":"0.28.2"}}';
// the growing runs stand for a developer's desktop, where CI is not set
const onDesktop = { env: { CI: "" } };

const rpc = (id: number | null, method: string, params?: object) =>
  JSON.stringify({ jsonrpc: "2.0", ...(id === null ? {} : { id }), method, ...(params ? { params } : {}) });
const call = (id: number, name: string, args: unknown, meta: object | null = META) =>
  rpc(id, "tools/call", { name, arguments: args, ...(meta ? { _meta: meta } : {}) });

/** One `cua-driver mcp` stream per list, in order: the recording's legacy stream, then its modern one. */
const STREAMS = [
  [
    call(1, "get_config", {}, null), // legacy before initialize: the era check refuses it
    rpc(2, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }),
    rpc(null, "notifications/initialized"),
    call(3, "get_config", {}, null), // recorded, legacy
    call(4, "get_agent_cursor_state", {}, null), // missing: answered live in the legacy era
    rpc(5, "ping"),
  ],
  [
    rpc(1, "server/discover", { _meta: META }),
    rpc(2, "tools/list", { _meta: META }),
    call(3, "get_config", {}), // recorded in the legacy stream: served with the modern envelope
    call(4, "get_recording_state", {}), // missing: answered live in the modern era
    call(5, "no_such_tool", {}), // -32602 Unknown tool
    call(6, "get_config", null), // -32602 arguments must be an object
    call(7, "get_config", {}, { ...META, "io.modelcontextprotocol/protocolVersion": "2025-11-25" }), // -32022
    call(8, "get_config", {}, { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }), // -32602 capabilities
    rpc(9, "initialize", { _meta: META }), // -32601 in the modern era
    rpc(10, "ping", { _meta: META }),
    rpc(11, "skills/list", { _meta: META }),
    rpc(12, "resources/list", { _meta: META }),
    call(13, "list_windows", {}, null), // legacy on a stream never initialized: refused
  ],
];
/** Where the missing calls' answers are: [stream, answer] (a notification has none). */
const MISSING = [
  [0, 3],
  [1, 3],
] as const;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const linesHarness = ["sh", "-c", STREAMS.map((s) => `python3 ${LINES} ${shellQuote(JSON.stringify(s))}`).join(" && ")];
const answersOf = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter((l) => l.startsWith('{"lines"'))
    .map((l) => (JSON.parse(l) as { lines: string[] }).lines);
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
const logSummary = (file: string) => JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1)!) as Record<string, unknown>;
const addedLines = (dir: string) =>
  readFileSync(path.join(dir, "cassette.jsonl"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { kind: string; stream?: number; dir?: string; line?: string; added?: { source: string } })
    .filter((e) => e.added && e.kind === "mcp")
    .map((e) => ({ stream: e.stream, dir: e.dir, line: e.line, source: e.added!.source }));
/** What the tee (test/e2e/replay/tee-mcp.mjs) saw, one list of lines per stream in the order the streams started. */
function teed(file: string): string[][] {
  const streams = new Map<number, string[]>();
  for (const l of readFileSync(file, "utf8").trim().split("\n")) {
    const { stream, line } = JSON.parse(l) as { stream: number; line: string };
    streams.set(stream, [...(streams.get(stream) ?? []), line]);
  }
  rmSync(file);
  return [...streams.values()];
}

describe.skipIf(skip !== undefined)("replay --record-missing over MCP in both eras (the 0.28.2 runtime live)", () => {
  it("answers every line as plain replay does, forwards the missing calls in their era, and the grown cassette replays them", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const cassette = path.join(dir.path, "rec");
    cpSync(V28, cassette, { recursive: true });
    // a scripted client, not an agent: the invariants are not what is compared here
    const log = path.join(dir.path, "log.jsonl");
    const before = await runCliInProcess(["replay", cassette, "--no-invariants", "--log", log, "--", ...linesHarness]);
    expect(logSummary(log)).toMatchObject({ type: "summary", unmatched: 2 });
    const replayed = answersOf(before.stdout);

    const grown = await runCliInProcess(["replay", cassette, "--record-missing", "--driver", "sdk:0.28.2", "--json", "--", ...linesHarness], onDesktop);
    expect(grown.exitCode, grown.stderr).toBe(0);
    expect(lastJson(grown.stdout)).toMatchObject({ added: 2, harnessExitCode: 0 });
    const got = answersOf(grown.stdout);
    // every line the cassette answers, byte for byte as plain replay answers it
    const unlessMissing = (streams: string[][]) => streams.map((s, i) => s.filter((_, j) => !MISSING.some(([si, li]) => si === i && li === j)));
    expect(unlessMissing(got)).toEqual(unlessMissing(replayed));
    const [legacy, modern] = got as [string[], string[]];
    expect(legacy[0]).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}');
    expect(modern[0]).toContain('"supportedVersions":["2026-07-28"]');
    expect(modern[2]).toContain(ENVELOPE);
    expect(modern[2]).toContain('"resultType":"complete"');
    expect(modern.slice(4, 9)).toEqual([
      '{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Unknown tool: no_such_tool"}}',
      '{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Tool arguments must be an object"}}',
      '{"jsonrpc":"2.0","id":7,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2025-11-25","supported":["2026-07-28"]}}}',
      '{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Missing or invalid MCP clientCapabilities metadata"}}',
      '{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Unknown method: initialize"}}',
    ]);
    expect(modern[9]).toBe(`{"jsonrpc":"2.0","id":10,"result":{${ENVELOPE},"resultType":"complete"}}`);
    // the missing calls: the live runtime's answer in the request's era, added to the cassette as the harness got it
    const [legacyLive, modernLive] = MISSING.map(([s, l]) => got[s]![l]!) as [string, string];
    expect(legacyLive).toMatch(/^\{"jsonrpc":"2.0","id":4,"result":\{"content":/);
    expect(legacyLive).not.toContain("resultType");
    expect(modernLive.startsWith(`{"jsonrpc":"2.0","id":4,"result":{${ENVELOPE},"content":[{"text":"✅ recording:`)).toBe(true);
    expect(modernLive).toContain('"resultType":"complete"');
    expect(addedLines(cassette)).toEqual([
      { stream: 0, dir: "c2s", line: STREAMS[0]![4], source: "sdk" },
      { stream: 0, dir: "s2c", line: legacyLive, source: "sdk" },
      { stream: 1, dir: "c2s", line: STREAMS[1]![3], source: "sdk" },
      { stream: 1, dir: "s2c", line: modernLive, source: "sdk" },
    ]);
    // the live modern answer is the runtime's result inside the envelope its stand-in built, and the added line says so
    const addedAnswers = readFileSync(path.join(cassette, "cassette.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind?: string; dir?: string; added?: unknown; synthesized?: unknown; wrapped?: { parts: string[] } })
      .filter((e) => e.added && e.kind === "mcp" && e.dir === "s2c");
    expect(addedAnswers.map((e) => [e.synthesized ?? null, e.wrapped?.parts ?? null])).toEqual([
      [null, null],
      [null, ["modern_envelope"]],
    ]);

    const after = await runCliInProcess(["replay", cassette, "--no-invariants", "--log", log, "--", ...linesHarness]);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(answersOf(after.stdout)).toEqual(got);
    expect(logSummary(log)).toMatchObject({ type: "summary", unmatched: 0 });
  });

  it("the official client 2.x, auto and pinned: the same bytes as plain replay, and its missing call grows the modern stream", {
    timeout: 90_000,
  }, async () => {
    await using dir = await tmpDir();
    const cassette = path.join(dir.path, "rec");
    cpSync(V28, cassette, { recursive: true });
    const tee = path.join(dir.path, "tee.jsonl");
    const env = { env: { CI: "", MCP_TEE: tee } };
    const grow = ["--record-missing", "--driver", "sdk:0.28.2", "--json"];
    /** `replay` (with `flags`) of the client in `mode`, calling get_config and the tools in `more`: its stdout, and the lines it got per stream. */
    const run = async (flags: string[], mode: string, ...more: string[]) => {
      const r = await runCliInProcess(["replay", cassette, ...flags, "--", process.execPath, CLIENT2, mode, ...more], env);
      expect(r.exitCode, r.stderr).toBe(0);
      return { stdout: r.stdout, lines: teed(tee) };
    };

    const replayed = (await run([], "auto")).lines;
    const grown = await run(grow, "auto", "get_recording_state");
    expect(lastJson(grown.stdout)).toMatchObject({ added: 1, harnessExitCode: 0 });
    const got = grown.lines;
    // the sibling probe's server/discover, then tools/list and get_config from the recording, then the live answer
    expect(got.map((s) => s.length)).toEqual([1, 3]);
    expect([got[0], got[1]!.slice(0, 2)]).toEqual([replayed[0], replayed[1]]);
    expect(got[1]![2]).toMatch(/^\{"jsonrpc":"2.0","id":2,"result":\{"_meta":\{"io.modelcontextprotocol\/serverInfo".*"resultType":"complete"/);
    expect(addedLines(cassette).map((e) => [e.stream, e.dir])).toEqual([
      [1, "c2s"],
      [1, "s2c"],
    ]);

    const log = path.join(dir.path, "log.jsonl");
    expect((await run(["--log", log], "auto", "get_recording_state")).lines).toEqual(got);
    expect(logSummary(log)).toMatchObject({ type: "summary", unmatched: 0 });

    // pinned: nothing is missing now, and record-missing serves every line as plain replay does
    const pinned = await run([], "2026-07-28", "get_recording_state");
    const pinnedGrow = await run(grow, "2026-07-28", "get_recording_state");
    expect(lastJson(pinnedGrow.stdout)).toMatchObject({ added: 0, served: 4 });
    expect(pinnedGrow.lines).toEqual(pinned.lines);
  });
  it("a cassette with one recorded stream, grown by an auto client: its session grows a stream of its own", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const cassette = path.join(dir.path, "rec");
    cpSync(V28, cassette, { recursive: true });
    // the legacy stream alone, as a legacy client records it
    const file = path.join(cassette, "cassette.jsonl");
    const [header, ...events] = readFileSync(file, "utf8").trim().split("\n");
    writeFileSync(file, `${[header, ...events.filter((l) => (JSON.parse(l) as { stream?: number }).stream !== 1)].join("\n")}\n`);
    const tee = path.join(dir.path, "tee.jsonl");
    const env = { env: { CI: "", MCP_TEE: tee } };
    const harness = ["--", process.execPath, CLIENT2, "auto", "get_recording_state"];
    const grown = await runCliInProcess(["replay", cassette, "--record-missing", "--driver", "sdk:0.28.2", "--json", ...harness], env);
    expect(grown.exitCode, grown.stderr).toBe(0);
    expect(lastJson(grown.stdout)).toMatchObject({ added: 1, harnessExitCode: 0 });
    const got = teed(tee);
    expect(got.map((s) => s.length)).toEqual([1, 3]);
    // the probe grew nothing; the session's stream is new to the cassette: opened, its added call, closed
    const added = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { kind: string; stream?: number; dir?: string; added?: unknown })
      .filter((e) => e.added)
      .map((e) => [e.kind, e.stream, e.dir ?? null]);
    expect(added).toEqual([
      ["mcp_open", 1, null],
      ["mcp", 1, "c2s"],
      ["mcp", 1, "s2c"],
      ["mcp_close", 1, null],
    ]);
    const log = path.join(dir.path, "log.jsonl");
    const again = await runCliInProcess(["replay", cassette, "--log", log, ...harness], env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(teed(tee)).toEqual(got);
    expect(logSummary(log)).toMatchObject({ type: "summary", unmatched: 0 });
  });
});
