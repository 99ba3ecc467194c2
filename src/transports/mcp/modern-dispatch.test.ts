// The MCP front serving a recording of a driver ≥ 0.28 in both eras, and one < 0.28 unchanged. The
// 0.28 session is the real 0.21.0 recording relabelled as 0.28.2 in memory: what is checked here
// is how the front treats the version, not 0.28's tool bytes.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { RequestEntry } from "#src/schema/replay-log.js";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { CLIENT_CAPABILITIES_KEY, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_KEY } from "./era.js";
import { mcpFront } from "./front.js";
import { INSTRUCTIONS_0_28_LINUX } from "./modern-answers.js";

const CASSETTE = path.join(repoRoot, "recordings/gtk3-demo-mcp");
const META = { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_KEY]: {} };
const INFO = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"cua-driver","version":"0.28.2"}}';

function open(version: string, faults?: FaultPlan, transport: "mcp" | "http" = "mcp") {
  const cassette = loadReplayCassette(CASSETTE);
  const header = cassette.header!;
  cassette.header = { ...header, driver: { ...header.driver, version } };
  const session = createReplaySession({ cassette, clock: createVirtualClock(), ...(faults ? { faults } : {}) });
  const connection = mcpFront(session, transport).open();
  const send = async (message: object | string) => {
    const reply = await connection.send(typeof message === "string" ? message : JSON.stringify({ jsonrpc: "2.0", ...message }));
    return reply.type === "answer" ? reply.answer : reply.type;
  };
  const requests = () => session.entries().filter((e): e is RequestEntry => e.type === "request");
  return { send, requests, recorded: recordedLines(cassette) };
}

/** The recorded response lines by the id they were recorded with. */
function recordedLines(cassette: ReturnType<typeof loadReplayCassette>): Map<string, string> {
  const out = new Map<string, string>();
  for (const x of cassette.prepared.exchanges) {
    const response = x.rpc?.response;
    if (response) out.set(/"id":([^,]+),/.exec(response)![1]!, response);
  }
  return out;
}

const modern = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ id, method, params: { ...params, _meta: META } });
const call = (name: string, args: unknown) => ({ name, arguments: args });
/** The result of a modern line with the envelope taken off again, to compare with the legacy bytes. */
const unfinished = (line: string) =>
  line.replace(`${INFO},`, "").replace(',"resultType":"complete"', "").replace('"cacheScope":"private",', "").replace(',"ttlMs":0', "");

describe("a recording of cua-driver ≥ 0.28 over MCP stdio", () => {
  it("answers a modern client: server/discover and ping built from the source, recorded tools/list and tools/call with the modern envelope", async () => {
    const { send, requests, recorded } = open("0.28.2");
    const discover = await send(modern("d-1", "server/discover"));
    expect(discover).toBe(
      `{"jsonrpc":"2.0","id":"d-1","result":{${INFO},"cacheScope":"private","capabilities":{"extensions":{"io.modelcontextprotocol/skills":{}},"resources":{},"tools":{}},"instructions":${JSON.stringify(INSTRUCTIONS_0_28_LINUX)},"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0}}`,
    );
    expect(await send(modern(2, "ping"))).toBe(`{"jsonrpc":"2.0","id":2,"result":{${INFO},"resultType":"complete"}}`);
    const list = await send(modern(3, "tools/list"));
    expect(Object.keys(JSON.parse(list as string).result)).toEqual([
      "_meta",
      "cacheScope",
      "capability_version",
      "enforcement_adapters",
      "resultType",
      "schema_version",
      "tools",
      "ttlMs",
    ]);
    expect(unfinished(list as string)).toBe(recorded.get("2")!.replace('"id":2,', '"id":3,'));
    const start = await send(modern(4, "tools/call", call("start_session", { session: "fixture-harness" })));
    const windows = await send(modern(5, "tools/call", call("list_windows", {})));
    expect(windows).toContain(INFO);
    expect(windows).not.toContain('"ttlMs"');
    expect(unfinished(windows as string)).toBe(recorded.get("4")!.replace('"id":4,', '"id":5,'));
    expect(unfinished(start as string)).toBe(recorded.get("3")!.replace('"id":3,', '"id":4,'));
    const log = requests();
    expect(log.map((r) => [r.method, r.synthesized ?? null, r.basis?.source ?? null, r.matched_seq ?? null])).toEqual([
      ["server/discover", "discover", "reference", null],
      ["ping", "ping", "reference", null],
      ["tools/list", null, null, 6],
      ["call", null, null, 8],
      ["call", null, null, 10],
    ]);
    expect(log[0]!.basis!.detail).toContain("4d6f4a55");
  });

  it("refuses what the driver refuses: initialize in the modern era, an unlisted tool, non-object arguments, other versions, missing capabilities", async () => {
    const { send, requests } = open("0.28.2");
    expect(await send(modern(1, "initialize", { protocolVersion: "2026-07-28" }))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Unknown method: initialize"}}',
    );
    expect(await send(modern(2, "tools/call", call("frobnicate", {})))).toBe(
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool: frobnicate"}}',
    );
    expect(await send(modern(3, "tools/call", call("list_windows", [])))).toBe(
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Tool arguments must be an object"}}',
    );
    expect(await send({ id: 4, method: "tools/list", params: { _meta: { [PROTOCOL_VERSION_KEY]: "2026-12-01", [CLIENT_CAPABILITIES_KEY]: {} } } })).toBe(
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-12-01","supported":["2026-07-28"]}}}',
    );
    expect(await send({ id: 5, method: "skills/list", params: { _meta: { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION } } })).toBe(
      '{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Missing or invalid MCP clientCapabilities metadata"}}',
    );
    expect(await send(modern(6, "resources/templates/list"))).toBe(
      '{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"Unknown method: resources/templates/list"}}',
    );
    // the unlisted tool is logged as refused before any lookup, for no-unknown-tools; the era's refusals too, with the era asked for
    expect(requests().map((r) => [r.method, r.tool, r.synthesized, r.era])).toEqual([
      ["initialize", undefined, "era_refusal", "modern"],
      ["call", "frobnicate", "permission_denied", "modern"],
      ["tools/list", undefined, "era_refusal", "modern"],
      ["skills/list", undefined, "era_refusal", "modern"],
    ]);
  });

  it("serves a legacy client as 0.28 does: nothing before initialize, then the recorded bytes; ping answered in either era", async () => {
    const { send, recorded } = open("0.28.2");
    expect(await send({ id: 1, method: "tools/call", params: call("list_windows", {}) })).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}',
    );
    expect(await send({ id: "s", method: "server/discover" })).toBe(
      '{"jsonrpc":"2.0","id":"s","error":{"code":-32602,"message":"MCP params must be an object"}}',
    );
    expect(
      await send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } }),
    ).toBe(recorded.get("1"));
    expect(await send({ method: "notifications/initialized" })).toBe("none");
    expect(await send({ id: 2, method: "ping" })).toBe('{"jsonrpc":"2.0","id":2,"result":{}}');
    expect(await send({ id: 3, method: "tools/call", params: call("start_session", { session: "fixture-harness" }) })).toBe(recorded.get("3"));
    expect(await send({ id: 4, method: "tools/call", params: call("list_windows", null) })).toBe(
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Tool arguments must be an object"}}',
    );
    // after a legacy initialize the connection may still speak modern
    expect(await send(modern(5, "tools/call", call("list_windows", {})))).toContain(INFO);
  });

  it("renders faults on a modern tools/call in the modern era: results get the envelope, protocol errors and cut lines stay as the driver sends them", async () => {
    const plan: FaultPlan = {
      rules: [
        { match: { tool: "list_windows", nth: 1 }, fault: { kind: "refusal", code: "window_not_found" } },
        { match: { tool: "list_windows", nth: 2 }, fault: { kind: "daemon_down" } },
        { match: { tool: "list_windows", nth: 3 }, fault: { kind: "truncated", keep: 0.5 } },
      ],
    };
    const { send, requests } = open("0.28.2", plan);
    await send(modern(1, "tools/call", call("start_session", { session: "fixture-harness" })));
    const refused = (await send(modern(2, "tools/call", call("list_windows", {})))) as string;
    expect(refused).toContain(INFO);
    expect(JSON.parse(refused).result).toMatchObject({ isError: true, resultType: "complete", structuredContent: { code: "window_not_found" } });
    const down = (await send(modern(3, "tools/call", call("list_windows", {})))) as string;
    expect(JSON.parse(down)).toMatchObject({ error: { code: -32603 } });
    expect(down).not.toContain("resultType");
    const cut = (await send(modern(4, "tools/call", call("list_windows", {})))) as string;
    const { send: sendWhole } = open("0.28.2");
    await sendWhole(modern(1, "tools/call", call("start_session", { session: "fixture-harness" })));
    const whole = (await sendWhole(modern(4, "tools/call", call("list_windows", {})))) as string;
    expect(whole.startsWith(cut)).toBe(true);
    expect(cut.length).toBe(Math.floor(whole.length * 0.5));
    expect(requests().map((r) => r.fault?.kind ?? null)).toEqual([null, "refusal", "daemon_down", "truncated"]);
  });
});

describe("a recording of cua-driver < 0.28 over MCP stdio", () => {
  it("keeps today's answers: no era check, server/discover and ping unknown methods", async () => {
    const { send, recorded, requests } = open("0.21.0");
    expect(await send(modern(1, "server/discover"))).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Unknown method: server/discover"}}');
    expect(await send({ id: 2, method: "ping" })).toBe('{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Unknown method: ping"}}');
    expect(await send({ id: 3, method: "tools/call", params: call("start_session", { session: "fixture-harness" }) })).toBe(recorded.get("3"));
    expect(await send(modern(4, "tools/call", call("list_windows", {})))).toBe(recorded.get("4"));
    expect(requests().map((r) => r.matched_seq)).toEqual([8, 10]);
  });
});

describe("skills and resources of a ≥ 0.28 recording", () => {
  it("are answered from the reference pack in either era, logged with the commits the bytes come from", async () => {
    const { send, requests } = open("0.28.2");
    const listed = JSON.parse((await send(modern(1, "skills/list"))) as string).result;
    expect(listed).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private", skills: [{ uri: "skill://cua-driver/SKILL.md" }] });
    const got = JSON.parse((await send(modern(2, "skills/get", { uri: "skill://cua-driver/SKILL.md" }))) as string).result;
    expect(got.skill).toEqual(listed.skills[0]);
    expect(got.ttlMs).toBeUndefined();
    const read = JSON.parse((await send(modern(3, "resources/read", { uri: "skill://cua-driver/README.md" }))) as string).result;
    expect(read.contents[0]).toMatchObject({ uri: "skill://cua-driver/README.md", mimeType: "text/markdown" });
    expect(await send(modern(4, "resources/read", { uri: "skill://cua-driver/UNKNOWN.md" }))).toBe(
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"unknown resource URI"}}',
    );
    await send({ id: 5, method: "initialize", params: {} });
    const legacyList = (await send({ id: 6, method: "resources/list" })) as string;
    expect(legacyList).toMatch(/^\{"jsonrpc":"2\.0","id":6,"result":\{"resources":\[/);
    const log = requests().filter((r) => r.synthesized === "skill_pack");
    expect(log.map((r) => r.method)).toEqual(["skills/list", "skills/get", "resources/read", "resources/list"]);
    expect(log[2]!.basis).toEqual({
      source: "reference",
      detail:
        "mcp_skills.rs (trycua/cua 4eb8ab51) over docs/reference/cua-driver-skills-named-commits, not a 0.28.x release's pack: README.md from trycua/cua@030af154",
    });
  });

  it("are unknown methods for a < 0.28 recording", async () => {
    const { send } = open("0.21.0");
    expect(await send(modern(1, "skills/list"))).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Unknown method: skills/list"}}');
  });
});

describe("MCP over HTTP", () => {
  it("a ≥ 0.28 recording names the gap for a modern request and serves a legacy one as before; < 0.28 is unchanged", async () => {
    const { send, recorded } = open("0.28.2", undefined, "http");
    expect(await send(modern(1, "tools/call", call("start_session", { session: "fixture-harness" })))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"cua-contract: cua-driver\'s HTTP endpoint rejects the 2026-07-28 era, and what it answers is not known (docs/eras.md)"}}',
    );
    expect(JSON.parse((await send({ id: 2, method: "server/discover" })) as string).error.code).toBe(-32603);
    expect(await send({ id: 3, method: "tools/call", params: call("start_session", { session: "fixture-harness" }) })).toBe(recorded.get("3"));
    const old = open("0.21.0", undefined, "http");
    expect(await old.send(modern(3, "tools/call", call("start_session", { session: "fixture-harness" })))).toBe(old.recorded.get("3"));
  });
});
