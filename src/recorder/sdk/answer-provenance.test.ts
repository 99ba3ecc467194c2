// A recording made over the runtime (`record --driver sdk:V`) says which MCP answers the recorder's
// stand-in built itself (discover, ping, initialize, skills and resources from the reference pack)
// and which are the runtime's bytes (tool results: at most wrapped in the modern envelope); the
// replay logs a marked answer as synthesized with the recorded basis (decision 0271).
import { describe, expect, it } from "vitest";
import { sdkUnavailable } from "../../../test/helpers/sdk-available.js";
import { createRedactor } from "#src/cassette/redact.js";
import type { RecordingSink } from "#src/cassette/recording-sink.js";
import type { CassetteEventInput } from "#src/cassette/writer.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { createReplaySession } from "#src/replay/session.js";
import type { CassetteEvent, CassetteHeader, McpLineEvent } from "#src/schema/cassette.js";
import type { RequestEntry } from "#src/schema/replay-log.js";
import { CLIENT_CAPABILITIES_KEY, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_KEY } from "#src/transports/mcp/era.js";
import { mcpFront } from "#src/transports/mcp/front.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { createSdkRecorderBackend, sdkDriverInfo } from "./sdk-recorder.js";

const skip = await sdkUnavailable("0.28.2");
const META = { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_KEY]: {} };
const rpc = (id: number, method: string, params?: object) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
const modern = (id: number, method: string, params: object = {}) => rpc(id, method, { ...params, _meta: META });

/** One legacy stream, then one modern stream, recorded over the 0.28.2 runtime into memory. */
const STREAMS = [
  [
    rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }),
    rpc(2, "tools/call", { name: "get_config", arguments: {} }),
  ],
  [
    modern(1, "server/discover"),
    modern(2, "tools/list"),
    modern(3, "tools/call", { name: "get_config", arguments: {} }),
    modern(4, "ping"),
    modern(5, "resources/list"),
    modern(6, "tools/call", { name: "no_such_tool", arguments: {} }),
  ],
];

async function record(): Promise<{ header: CassetteHeader; events: CassetteEvent[] }> {
  const events: CassetteEventInput[] = [];
  const sink: RecordingSink = {
    dir: "/nowhere",
    append: (e) => events.push(e) - 1,
    putFrame: () => "frames/0000000000000000000000000000000000000000000000000000000000000000.png",
    header: () => undefined,
    close: () => {},
  };
  const sdk = await createSdkBackend({ version: "0.28.2" });
  const backend = createSdkRecorderBackend({ sdk, sink, redactor: createRedactor({ enabled: true }), clock: () => 0 });
  for (const lines of STREAMS) {
    let answered = 0;
    let done: () => void = () => {};
    const all = new Promise<void>((resolve) => (done = resolve));
    const session = backend.mcp(
      { argv: ["mcp"], cwd: "/", env: {} },
      {
        send: () => {
          if (++answered === lines.length) done();
        },
        stderr: () => {},
        exit: () => {},
      },
    );
    for (const line of lines) session.line(line);
    await all;
    session.end();
    session.gone?.();
  }
  await backend.close?.();
  const header: CassetteHeader = {
    format: "cua-cassette",
    version: 1,
    transport: "mcp",
    driver: sdkDriverInfo(sdk),
    recorded_at: "2026-12-02T12:00:00.000Z",
    recorder: { name: "cua-contract", version: "0.1.0" },
  };
  return { header, events: events.map((e, seq) => ({ ...e, seq }) as CassetteEvent) };
}

const answers = (events: CassetteEvent[], stream: number) =>
  events
    .filter((e): e is McpLineEvent => e.kind === "mcp" && e.stream === stream && e.dir === "s2c")
    .map((e) => ({ ...e, id: JSON.parse(e.line as string).id }));

describe.skipIf(Boolean(skip))("the MCP answers the recorder's stand-in built over the runtime", () => {
  it("are marked in the cassette with their kind and basis; the runtime's tool results are not, and replay logs the marked ones as synthesized", {
    timeout: 60_000,
  }, async () => {
    const { header, events } = await record();
    const [legacy, modernAnswers] = [answers(events, 0), answers(events, 1)];
    const mark = (e: McpLineEvent) => [e.synthesized?.kind ?? null, e.wrapped?.parts ?? null];
    expect(legacy.map(mark)).toEqual([
      ["initialize", null],
      [null, null], // get_config: the runtime's own result bytes, unmarked
    ]);
    expect(modernAnswers.map(mark)).toEqual([
      ["discover", null],
      [null, ["host_tools", "modern_envelope"]],
      [null, ["modern_envelope"]], // the runtime's result inside the envelope the stand-in built
      ["ping", null],
      ["skill_pack", null],
      ["permission_denied", null],
    ]);
    expect(modernAnswers[4]!.synthesized!.basis).toMatchObject({ source: "reference" });
    expect(modernAnswers[4]!.synthesized!.basis.detail).toContain("docs/reference/cua-driver-skills-named-commits, not a 0.28.x release's pack");
    expect(modernAnswers[0]!.synthesized!.basis.detail).toContain("trycua/cua 4d6f4a55 mcp_wire.rs");

    // the recording replayed: the stand-in's answers are logged as synthesized with the recorded basis, tool results as replayed
    const session = createReplaySession({ cassette: { header, events }, clock: createVirtualClock() });
    for (const lines of STREAMS) {
      const connection = mcpFront(session, "mcp").open();
      for (const line of lines) await connection.send(line);
      connection.close();
    }
    const requests = session.entries().filter((e): e is RequestEntry => e.type === "request");
    expect(requests.map((e) => [e.method, e.tool ?? null, e.outcome, e.synthesized ?? null, e.matched_seq !== undefined])).toEqual([
      ["initialize", null, "replayed", "initialize", true],
      ["call", "get_config", "replayed", null, true],
      ["server/discover", null, "replayed", "discover", true],
      ["tools/list", null, "replayed", null, true],
      ["call", "get_config", "replayed", null, true],
      ["ping", null, "replayed", "ping", true],
      ["resources/list", null, "replayed", "skill_pack", true],
      ["call", "no_such_tool", "replayed", "permission_denied", true],
    ]);
    expect(requests[6]!.basis).toEqual(modernAnswers[4]!.synthesized!.basis);
    expect(requests[2]!.basis).toEqual(modernAnswers[0]!.synthesized!.basis);
    expect(session.finish()).toMatchObject({ unmatched: 0, synthesized: 5 });
  });
});
