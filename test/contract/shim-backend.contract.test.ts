// The ShimBackend contract (src/shim-server/backend.ts): what answers the `cua-driver` shim must
// do whatever it is — the replayer (a real recording), the published runtime standing in for the
// binary (@trycua/cua-driver 0.21.0 in process, no desktop), and the recorder forwarding to a binary
// (the fake cua-driver 0.21.0, a test double). The shim owns the socket and framing; these see requests.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { createDriverRecorderBackend } from "#src/recorder/driver-backend.js";
import { startClock } from "#src/transports/recording/recording-parts.js";
import { syntheticSink } from "../helpers/synthetic-sink.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import type { CliRequest, McpIo, ShimBackend } from "#src/shim-server/backend.js";
import { createReplayBackend } from "#src/transports/cli/replay-backend.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { repoRoot } from "../helpers/run-cli.js";

const FAKE = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const work = mkdtempSync(path.join(os.tmpdir(), "shim-backend-contract-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Implementation {
  name: string;
  make(): Promise<{ backend: ShimBackend; checkRecorded?(): void }>;
}

let recordings = 0;
const IMPLEMENTATIONS: Implementation[] = [
  {
    name: "replayer (recordings/gtk3-demo-mcp)",
    make: async () => {
      const session = createReplaySession({ cassette: loadReplayCassette(path.join(repoRoot, "recordings/gtk3-demo-mcp")), clock: createVirtualClock() });
      return { backend: createReplayBackend({ session }) };
    },
  },
  {
    name: "published runtime 0.21.0 as the binary",
    make: async () => ({ backend: await createSdkBackend({ version: "0.21.0" }) }),
  },
  {
    name: "recorder forwarding to the fake cua-driver 0.21.0",
    make: async () => {
      const dir = path.join(work, `rec-${recordings++}`);
      const sink = syntheticSink(dir, FAKE);
      const backend = createDriverRecorderBackend({ sink, redactor: createRedactor({ enabled: true }), clock: startClock(), driver: FAKE });
      return {
        backend,
        // every call it answered is in the cassette
        checkRecorded: () => {
          sink.close();
          expect(readFileSync(path.join(dir, "cassette.jsonl"), "utf8").trim().split("\n").length).toBeGreaterThan(1);
        },
      };
    },
  },
];

const cliRequest = (argv: string[]): CliRequest => ({ argv, stdin: Buffer.alloc(0), cwd: work, env: { HOME: work }, signal: new AbortController().signal });

/** An MCP session driven line by line: what it sent back, and how it ended. */
function mcpSession(backend: ShimBackend) {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let exited: { code: number | null } | undefined;
  let exits = 0;
  let onExit: (() => void) | undefined;
  const io: McpIo = {
    send: (line) => (waiting.length > 0 ? waiting.shift()!(line) : lines.push(line)),
    stderr: () => {},
    exit: (code) => {
      exits++;
      exited = { code };
      onExit?.();
    },
  };
  const handler = backend.mcp({ argv: ["mcp"], cwd: work, env: { HOME: work } }, io);
  return {
    ask: (message: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const take = (line: string) => resolve(JSON.parse(line) as Record<string, unknown>);
        if (lines.length > 0) take(lines.shift()!);
        else waiting.push(take);
        handler.line(JSON.stringify({ jsonrpc: "2.0", ...message }));
      }),
    end: () =>
      new Promise<{ code: number | null; exits: number }>((resolve) => {
        onExit = () => setTimeout(() => resolve({ code: exited!.code, exits }), 50);
        handler.end();
        if (exited) onExit();
      }),
  };
}

describe.each(IMPLEMENTATIONS)("ShimBackend: $name", (impl) => {
  it("answers `cua-driver --version` with the driver's version line, exit 0", { timeout: 30_000 }, async () => {
    const { backend, checkRecorded } = await impl.make();
    const r = await backend.cli(cliRequest(["--version"]));
    expect([r.exitCode, r.stdout.toString("utf8")]).toEqual([0, "cua-driver 0.21.0\n"]);
    await backend.close?.();
    checkRecorded?.();
  });

  it("refuses `cua-driver call` of a tool the driver does not have as 0.21.0 does (exit 1, the reason on stderr)", { timeout: 30_000 }, async () => {
    const { backend, checkRecorded } = await impl.make();
    const r = await backend.cli(cliRequest(["call", "no_such_tool", "{}"]));
    expect(r.exitCode).toBe(1);
    expect(r.stdout.toString("utf8")).toBe("");
    expect(r.stderr.toString("utf8")).toContain("no_such_tool");
    await backend.close?.();
    checkRecorded?.();
  });

  it("serves `cua-driver mcp`: initialize and tools/list answered with the request's id, stdin EOF ends it once with exit 0", { timeout: 30_000 }, async () => {
    const { backend, checkRecorded } = await impl.make();
    const mcp = mcpSession(backend);
    const init = await mcp.ask({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "contract", version: "1" } },
    });
    expect(init).toMatchObject({ id: 1, result: { serverInfo: { name: "cua-driver", version: "0.21.0" } } });
    const list = await mcp.ask({ id: "two", method: "tools/list" });
    expect(list.id).toBe("two");
    const names = ((list.result as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(names).toContain("list_windows");
    expect(await mcp.end()).toEqual({ code: 0, exits: 1 });
    await backend.close?.();
    checkRecorded?.();
  });
});
