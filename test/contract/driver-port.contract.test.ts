// The Driver-port contract (src/driver/port.ts), run against every implementation a harness can
// be given: per-call CLI and MCP stdio (against the fake cua-driver 0.21.0, a test double), the real
// runtime in process (@trycua/cua-driver 0.21.0, no desktop), the replayer (a real recording) and
// the scripted driver. Outcomes are values: nothing here may reject.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isTransportFailure, type Driver, type Reply } from "#src/driver/port.js";
import { createCliDriver } from "#src/transports/cli/driver.js";
import { createMcpDriver } from "#src/transports/mcp/driver.js";
import { createSdkDriver } from "#src/transports/sdk/driver.js";
import { createReplayer } from "#src/replay/replayer.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { scriptedDriver } from "#src/testing/scripted-driver.js";
import { repoRoot } from "../helpers/run-cli.js";

const FAKE = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const CASSETTE = path.join(repoRoot, "recordings/gtk3-demo-mcp");

interface Implementation {
  name: string;
  /** A driver; `slow` answers every call after ~300 ms (where the implementation can be made slow). */
  make(options: { slow?: boolean }): Promise<Driver & { close?(): Promise<void> }>;
  /** Whether it answers a tool nobody scripted (the scripted driver throws on purpose: a test should notice). */
  refusesUnknownTools: boolean;
  canBeSlow: boolean;
}

const opened: { close?(): Promise<void> }[] = [];
afterAll(async () => {
  for (const d of opened) await d.close?.();
});

const SCREEN = { content: [{ type: "text", text: "1280x800" }], structuredContent: { width: 1280, height: 800 } };

const IMPLEMENTATIONS: Implementation[] = [
  {
    name: "cli (fake cua-driver 0.21.0)",
    make: async ({ slow }) => createCliDriver({ command: FAKE, env: slow ? { FAKE_CUA_DRIVER_DELAY_MS: "300" } : {} }),
    refusesUnknownTools: true,
    canBeSlow: true,
  },
  {
    name: "mcp (fake cua-driver 0.21.0)",
    make: async ({ slow }) => createMcpDriver({ command: FAKE, env: slow ? { FAKE_CUA_DRIVER_DELAY_MS: "300" } : {} }),
    refusesUnknownTools: true,
    canBeSlow: true,
  },
  {
    name: "sdk (@trycua/cua-driver 0.21.0 in process, no desktop)",
    make: async () => createSdkDriver({ version: "0.21.0" }),
    refusesUnknownTools: true,
    canBeSlow: false,
  },
  {
    name: "replayer (recordings/gtk3-demo-mcp)",
    make: async ({ slow }) =>
      createReplayer({
        cassette: loadReplayCassette(CASSETTE),
        ...(slow ? { faults: { rules: [{ match: {}, fault: { kind: "delay" as const, ms: 300 } }] } } : {}),
      }),
    refusesUnknownTools: true,
    canBeSlow: true,
  },
  {
    name: "scripted",
    make: async () =>
      scriptedDriver({ get_screen_size: SCREEN, list_windows: { content: [{ type: "text", text: "[]" }], structuredContent: { windows: [] } } }, [
        { name: "get_screen_size", annotations: { readOnlyHint: true } },
        { name: "list_windows", annotations: { readOnlyHint: true } },
      ]),
    refusesUnknownTools: false,
    canBeSlow: false,
  },
];

async function driverOf(impl: Implementation, options: { slow?: boolean } = {}) {
  const d = await impl.make(options);
  opened.push(d);
  return d;
}

/** A ToolResult or a TransportFailure, and nothing else. */
function expectReply(reply: Reply, tool: string): void {
  if (isTransportFailure(reply)) {
    expect(["timeout", "transport_error", "daemon_died"]).toContain(reply.kind);
    expect(reply.tool).toBe(tool);
    return;
  }
  expect(Array.isArray(reply.content)).toBe(true);
  for (const block of reply.content) expect(typeof block.type).toBe("string");
  if (reply.isError !== undefined) expect(typeof reply.isError).toBe("boolean");
  if (reply.structuredContent !== undefined) expect(typeof reply.structuredContent).toBe("object");
  if (reply.raw !== undefined) expect(typeof reply.raw).toBe("string");
}

describe.each(IMPLEMENTATIONS)("Driver port: $name", (impl) => {
  it("lists its tools: each with a name, no name twice, the reads among them", { timeout: 30_000 }, async () => {
    const tools = await (await driverOf(impl)).listTools();
    const names = tools.map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(names).toContain("list_windows");
  });

  it("answers a read with a result or an outcome value, never a rejection", { timeout: 30_000 }, async () => {
    const driver = await driverOf(impl);
    for (const tool of ["get_screen_size", "list_windows"]) expectReply(await driver.call(tool, {}), tool);
  });
});

// What only some implementations can be made to do: the others are left out of the table, not skipped.
describe.each(IMPLEMENTATIONS.filter((i) => i.refusesUnknownTools))("Driver port: $name, a tool it does not have", (impl) => {
  it("is refused with an error result (the call did not happen), not a transport failure", { timeout: 30_000 }, async () => {
    const reply = await (await driverOf(impl)).call("no_such_tool", {});
    expectReply(reply, "no_such_tool");
    expect(isTransportFailure(reply)).toBe(false);
    expect((reply as { isError?: boolean }).isError).toBe(true);
  });
});

describe.each(IMPLEMENTATIONS.filter((i) => i.canBeSlow))("Driver port: $name, answering slowly", (impl) => {
  it("a call past the caller's deadline resolves as a timeout of that tool (outcome unknown)", { timeout: 30_000 }, async () => {
    // list_windows: a call the recording has (an unrecorded one is not answered at all)
    const reply = await (await driverOf(impl, { slow: true })).call("list_windows", {}, { timeoutMs: 100 });
    expect(reply).toMatchObject({ kind: "timeout", tool: "list_windows" });
  });
});
