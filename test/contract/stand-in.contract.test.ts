// The StandIn contract (src/driver/stand-in.ts) for the per-call CLI, run against everything that
// answers `cua-driver …` invocations: the replay (a real recording), the live binary (the fake
// cua-driver 0.21.0, a test double), the runtime in process (@trycua/cua-driver 0.21.0, no desktop),
// and the recording tap over the live binary; and for MCP lines, the replay over stdio and HTTP,
// the live binary's stream asked request by request, and the runtime in direct mode; and for calls
// in process, the replayer and the runtime's Driver adapter. The replay's own rules (its log, hangs, faults) are
// in replay-front.contract.test.ts; these are the rules every stand-in meets.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { type StandIn, type StandInReply, tap } from "#src/driver/stand-in.js";
import { cliRecordingTap } from "#src/transports/cli/tap.js";
import { startClock } from "#src/transports/recording/recording-parts.js";
import { syntheticSink } from "../helpers/synthetic-sink.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { binaryCliStandIn } from "#src/transports/cli/live.js";
import { cliFront } from "#src/transports/cli/replay-backend.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { sdkCliStandIn, sdkMcpStandIn } from "#src/transports/sdk/stand-in.js";
import { createSdkDriver } from "#src/transports/sdk/driver.js";
import { inprocessFront, type InprocessRequest } from "#src/transports/inprocess/front.js";
import { createReplayer } from "#src/replay/replayer.js";
import { isTransportFailure, type Reply } from "#src/driver/port.js";
import { mcpFront } from "#src/transports/mcp/front.js";
import { binaryMcpStream } from "#src/transports/mcp/live-binary.js";
import { pairedMcpStandIn } from "#src/transports/mcp/live-paired.js";
import { toolNames } from "#src/transports/sdk/tool-names.js";
import { repoRoot } from "../helpers/run-cli.js";

const FAKE = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const work = mkdtempSync(path.join(os.tmpdir(), "stand-in-contract-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Implementation {
  name: string;
  make(): Promise<{ standIn: StandIn<CliRequest, CliResponse>; close?(): Promise<void> }>;
}

let recordings = 0;
const IMPLEMENTATIONS: Implementation[] = [
  {
    name: "replay (recordings/gtk3-demo-mcp)",
    make: async () => ({
      standIn: cliFront(createReplaySession({ cassette: loadReplayCassette(path.join(repoRoot, "recordings/gtk3-demo-mcp")), clock: createVirtualClock() })),
    }),
  },
  { name: "the live binary (fake cua-driver 0.21.0)", make: async () => ({ standIn: binaryCliStandIn({ driver: FAKE, who: "contract" }) }) },
  {
    name: "the runtime 0.21.0 in process",
    make: async () => {
      const sdk = await createSdkBackend({ version: "0.21.0" });
      return { standIn: sdkCliStandIn(sdk), close: () => sdk.close?.() ?? Promise.resolve() };
    },
  },
  {
    name: "the recording tap over the live binary",
    make: async () => {
      const dir = path.join(work, `rec-${recordings++}`);
      const sink = syntheticSink(dir, FAKE);
      const standIn = tap(
        binaryCliStandIn({ driver: FAKE, who: "contract" }),
        cliRecordingTap({ sink, redactor: createRedactor({ enabled: true }), clock: startClock() }),
      );
      return {
        standIn,
        // every answer went into the cassette (after its header)
        close: async () => {
          sink.close();
          expect(readFileSync(path.join(dir, "cassette.jsonl"), "utf8").trim().split("\n").length).toBeGreaterThan(1);
        },
      };
    },
  },
];

const request = (argv: string[]): CliRequest => ({ argv, stdin: Buffer.alloc(0), cwd: work, env: { HOME: work }, signal: new AbortController().signal });

function answered(reply: StandInReply<CliResponse>): CliResponse {
  if (reply.type !== "answer") throw new Error(`expected an answer, got ${reply.type}`);
  return reply.answer;
}

describe.each(IMPLEMENTATIONS)("StandIn (per-call CLI): $name", (impl) => {
  it("answers `cua-driver --version` with the driver's version line, exit 0", { timeout: 30_000 }, async () => {
    const { standIn, close } = await impl.make();
    expect(standIn.transport).toBe("cli");
    const connection = standIn.open();
    const r = answered(await connection.send(request(["--version"])));
    connection.close();
    expect([r.exitCode, r.stdout.toString("utf8")]).toEqual([0, "cua-driver 0.21.0\n"]);
    await close?.();
  });

  it("refuses `call` of a tool the driver does not have as 0.21.0 does (exit 1, the reason on stderr)", { timeout: 30_000 }, async () => {
    const { standIn, close } = await impl.make();
    const connection = standIn.open();
    const r = answered(await connection.send(request(["call", "no_such_tool", "{}"])));
    connection.close();
    expect([r.exitCode, r.stdout.toString("utf8")]).toEqual([1, ""]);
    expect(r.stderr.toString("utf8")).toContain("no_such_tool");
    await close?.();
  });

  it("shows a tap every request and the very reply the harness gets", { timeout: 30_000 }, async () => {
    const { standIn, close } = await impl.make();
    const seen: { argv: string[]; reply: StandInReply<CliResponse> }[] = [];
    const tapped = tap(standIn, (req) => (reply) => void seen.push({ argv: req.argv, reply }));
    const connection = tapped.open();
    const reply = await connection.send(request(["--version"]));
    connection.close();
    expect(seen).toEqual([{ argv: ["--version"], reply }]);
    expect(answered(reply).stdout.toString("utf8")).toBe("cua-driver 0.21.0\n");
    await close?.();
  });
});

describe("StandIn (per-call CLI): the live binary", () => {
  it("closes without an answer, exit 127 and why on stderr, when the driver cannot be started", async () => {
    const missing = path.join(work, "no-such-driver");
    const connection = binaryCliStandIn({ driver: missing, who: "contract" }).open();
    const reply = await connection.send(request(["--version"]));
    expect(reply).toMatchObject({ type: "closed", code: 127, stderr: expect.stringContaining(`contract: cannot run the driver ${missing}: `) });
    expect(reply.type === "closed" && reply.cause).toBeInstanceOf(Error);
  });
});

interface LineImplementation {
  name: string;
  make(): Promise<StandIn<string, string>>;
}

const replayMcp = (transport: "mcp" | "http") =>
  mcpFront(createReplaySession({ cassette: loadReplayCassette(path.join(repoRoot, "recordings/gtk3-demo-mcp")), clock: createVirtualClock() }), transport);

const LINE_IMPLEMENTATIONS: LineImplementation[] = [
  { name: "replay over MCP stdio", make: async () => replayMcp("mcp") },
  { name: "replay over MCP HTTP", make: async () => replayMcp("http") },
  {
    name: "the live binary's stream, paired (fake cua-driver 0.21.0)",
    make: async () => pairedMcpStandIn((io) => binaryMcpStream({ file: FAKE, who: "contract", init: { argv: ["mcp"], cwd: work, env: { HOME: work } }, io })),
  },
  {
    name: "the runtime 0.21.0 in direct mode",
    make: async () => {
      const sdk = await createSdkBackend({ version: "0.21.0" });
      closers.push(() => sdk.close?.() ?? Promise.resolve());
      const listToolsJson = await sdk.driver.listToolsJson();
      return sdkMcpStandIn({
        driver: sdk.driver,
        version: sdk.metadata.driverVersion,
        protocolVersion: sdk.metadata.mcpProtocolVersion,
        listToolsJson,
        names: toolNames(listToolsJson),
      });
    },
  },
];

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

const line = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...message });

describe.each(LINE_IMPLEMENTATIONS)("StandIn (MCP lines): $name", (impl) => {
  it("answers initialize with the request's id and the driver's version, a notification with nothing, an unknown method with -32601", {
    timeout: 30_000,
  }, async () => {
    const connection = (await impl.make()).open();
    const init = await connection.send(
      line({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "contract", version: "1" } } }),
    );
    expect(init.type).toBe("answer");
    expect(JSON.parse(init.type === "answer" ? init.answer : "{}")).toMatchObject({ id: 1, result: { serverInfo: { name: "cua-driver", version: "0.21.0" } } });
    expect(await connection.send(line({ method: "notifications/initialized" }))).toEqual({ type: "none" });
    // the same bytes from every implementation; one that built the answer itself may say so (its provenance)
    expect(await connection.send(line({ id: "p", method: "ping" }))).toMatchObject({
      type: "answer",
      answer: '{"jsonrpc":"2.0","id":"p","error":{"code":-32601,"message":"Unknown method: ping"}}',
    });
    connection.close();
  });
});

const CALL_IMPLEMENTATIONS: { name: string; make(): Promise<StandIn<InprocessRequest, Reply>> }[] = [
  { name: "the replayer", make: async () => inprocessFront(createReplayer({ cassette: loadReplayCassette(path.join(repoRoot, "recordings/gtk3-demo-mcp")) })) },
  {
    name: "the runtime 0.21.0's Driver adapter",
    make: async () => {
      const driver = await createSdkDriver({ version: "0.21.0" });
      closers.push(() => driver.close());
      return inprocessFront(driver);
    },
  },
];

describe.each(CALL_IMPLEMENTATIONS)("StandIn (calls in process): $name", (impl) => {
  it("refuses a tool the driver does not have with a result that says so, not a transport failure", { timeout: 30_000 }, async () => {
    const connection = (await impl.make()).open();
    const reply = await connection.send({ tool: "no_such_tool", args: {} });
    connection.close();
    if (reply.type !== "answer") throw new Error(`expected an answer, got ${reply.type}`);
    const r = reply.answer;
    expect(isTransportFailure(r)).toBe(false);
    if (isTransportFailure(r)) return;
    expect(r.isError).toBe(true);
    expect(r.content.map((c) => ("text" in c ? String(c.text) : "")).join("\n")).toContain("no_such_tool");
  });
});
