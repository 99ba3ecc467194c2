// The Python MCP SDK's recording of cua-driver 0.28.2 (test/fixtures/cassettes/mcp-python-sdk-0.28.2),
// read for the tests that replay it without Python and those that run the client itself.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./run-cli.js";

export const FIXTURE = path.join(repoRoot, "test/fixtures/cassettes/mcp-python-sdk-0.28.2");

type Event = { kind: string; stream?: number; dir?: "c2s" | "s2c"; line?: string; synthesized?: { kind: string }; wrapped?: { parts: string[] } };

/** A recording's header and MCP lines, each direction in order, with each answer's marks. */
export function cassette(dir: string) {
  const [header, ...events] = readFileSync(path.join(dir, "cassette.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const mcp = (events as Event[]).filter((e) => e.kind === "mcp");
  return {
    header: header as { driver: { version: string; source: string; location: string } },
    c2s: mcp.filter((e) => e.dir === "c2s").map((e) => e.line!),
    s2c: mcp.filter((e) => e.dir === "s2c").map((e) => e.line!),
    /** Each answer's marks: the kind the recorder's stand-in built it as, the parts it built around the runtime's bytes. */
    marks: mcp.filter((e) => e.dir === "s2c").map((e) => [e.synthesized?.kind ?? null, e.wrapped?.parts ?? null]),
    streams: new Set(mcp.map((e) => e.stream)).size,
  };
}

/** A replay log's entries. */
export const readLog = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
