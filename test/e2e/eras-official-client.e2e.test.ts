// Code we did not write picks the era: the official TypeScript client @modelcontextprotocol/client 2.x,
// in each of its negotiation modes, over stdio against `cua-contract serve <cassette> --transport mcp`.
// A 0.21.0 recording must end legacy (a pinned client failing as against that binary); the 0.28.2
// recording (the real runtime under Xvfb, one legacy and one modern stream) must end modern.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const V21 = path.join(repoRoot, "recordings/gtk3-demo-mcp");
const V28 = path.join(repoRoot, "test/fixtures/cassettes/mcp-sdk-0.28.2-eras");

async function connect(cassette: string, mode: VersionNegotiationMode) {
  const client = new Client(
    { name: "eras-e2e", version: "1" },
    { capabilities: {}, versionNegotiation: { mode, probe: { timeoutMs: 15_000, maxRetries: 0 } } },
  );
  const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, "serve", cassette, "--transport", "mcp"], stderr: "pipe" });
  await client.connect(transport);
  return client;
}

async function session(cassette: string, mode: VersionNegotiationMode, tool: string) {
  const client = await connect(cassette, mode);
  try {
    const tools = await client.listTools();
    const result = await client.callTool({ name: tool, arguments: {} });
    return {
      era: client.getProtocolEra(),
      version: client.getNegotiatedProtocolVersion(),
      server: client.getServerVersion(),
      tools: tools.tools.length,
      result,
    };
  } finally {
    await client.close();
  }
}

const PIN: VersionNegotiationMode = { pin: "2026-07-28" };

describe("the official MCP client 2.x against a replayed driver", () => {
  it("0.21.0: legacy and auto end in the legacy era; a pinned client fails as against that binary", async () => {
    for (const mode of ["legacy", "auto"] as const) {
      const s = await session(V21, mode, "list_windows");
      expect([mode, s.era, s.version]).toEqual([mode, "legacy", "2025-06-18"]);
      expect(s.server).toMatchObject({ name: "cua-driver", version: "0.21.0" });
      expect(s.result.isError).not.toBe(true);
      expect(s.result.structuredContent).toHaveProperty("windows");
    }
    await expect(connect(V21, PIN)).rejects.toThrow(/did not offer pinned protocol version 2026-07-28/);
  }, 60_000);

  it("0.28.2: auto and pinned end in the modern era, legacy stays legacy; every tool call answered from the recording", async () => {
    const legacy = await session(V28, "legacy", "get_config");
    expect([legacy.era, legacy.version, legacy.tools]).toEqual(["legacy", "2025-06-18", 60]);
    expect(legacy.result._meta).toBeUndefined();
    for (const mode of ["auto", PIN] as const) {
      const s = await session(V28, mode, "get_config");
      expect([s.era, s.version, s.tools]).toEqual(["modern", "2026-07-28", 60]);
      expect(s.server).toMatchObject({ name: "cua-driver", version: "0.28.2" });
      expect(s.result._meta).toEqual({ "io.modelcontextprotocol/serverInfo": { name: "cua-driver", version: "0.28.2" } });
      expect(s.result.structuredContent).toMatchObject({ platform: "linux", version: "0.28.2" });
      expect(s.result.structuredContent).toEqual(legacy.result.structuredContent);
    }
  }, 60_000);
});

describe("the 0.28.2 recording replayed to the requests it was recorded with", () => {
  it("gives back every recorded line byte for byte, in both eras, with nothing unmatched", async () => {
    const events = readFileSync(path.join(V28, "cassette.jsonl"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { kind: string; stream?: number; dir?: string; line?: string });
    const streams = [0, 1].map((stream) => events.filter((e) => e.kind === "mcp" && e.stream === stream));
    await using dir = await tmpDir();
    const script = streams.map((s) => `python3 ${CLIENT} ${shellQuote(JSON.stringify(s.filter((e) => e.dir === "c2s").map((e) => e.line!)))}`).join("\n");
    writeFileSync(path.join(dir.path, "harness.sh"), `set -e\n${script}\n`);
    const log = path.join(dir.path, "log.jsonl");
    const r = await runCliInProcess(["replay", V28, "--log", log, "--", "sh", path.join(dir.path, "harness.sh")]);
    expect(r.exitCode, r.stderr).toBe(0);
    const seen = r.stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { lines: string[] }).lines);
    expect(seen).toEqual(streams.map((s) => s.filter((e) => e.dir === "s2c").map((e) => e.line!)));
    expect(seen[1]![0]).toContain('"supportedVersions":["2026-07-28"]');
    const summary = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .at(-1);
    expect(summary).toMatchObject({ type: "summary", unmatched: 0, unused: [] });
  }, 60_000);
});

const CLIENT = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe("a harness on the official client 2.x under `replay` (the shim on PATH)", () => {
  it("in auto mode probes on a sibling stream, then speaks the modern era; every invariant holds and nothing is unmatched", async () => {
    await using dir = await tmpDir();
    const log = path.join(dir.path, "log.jsonl");
    const r = await runCliInProcess(["replay", V28, "--log", log, "--", process.execPath, path.join(repoRoot, "test/e2e/replay/mcp-client2.mjs"), "auto"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toMatchObject({ era: "modern", version: "2026-07-28", tools: 60, config: { version: "0.28.2" } });
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = entries.filter((e) => e.type === "request");
    // the sibling process gets the one server/discover (answered from the recording); the session's
    // own process starts with the era known and never discovers again
    expect(requests.map((e) => [e.stream, e.method, e.matched_seq !== undefined])).toEqual([
      [0, "server/discover", true],
      [1, "tools/list", true],
      [1, "call", true],
    ]);
    expect(entries.at(-1)).toMatchObject({ type: "summary", unmatched: 0 });
  }, 60_000);
});
