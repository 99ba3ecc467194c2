// The Python MCP SDK 2.x (`pip install mcp`) picks the era: its `Client` in its default mode
// (mode="auto") probes server/discover on the session's own stream and falls back to initialize.
// The recording in test/fixtures/cassettes/mcp-python-sdk-0.28.2 is what that client sent to, and got
// from, the real runtime 0.28.2 under Xvfb (its README says how it was made). The first group replays
// it without Python (here, in `npm test`); eras-python-client-live.e2e.test.ts runs the client itself
// when a python3 with the SDK is found (`npm run test:desktop`: one of its runs records on a desktop).
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { cassette, FIXTURE, readLog } from "../helpers/python-client-recording.js";
import { cliPath } from "../helpers/run-cli.js";
import { tmpDir } from "../helpers/tmp-dir.js";

/** Sends each line to `serve DIR --transport mcp` and, after a request, reads its one answer line. */
async function serveLines(dir: string, lines: string[], log: string): Promise<string[]> {
  const child = spawn(process.execPath, [cliPath, "serve", dir, "--transport", "mcp", "--log", log], { stdio: ["pipe", "pipe", "pipe"] });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const got: string[] = [];
  try {
    for (const line of lines) {
      child.stdin.write(`${line}\n`);
      if ((JSON.parse(line) as { id?: unknown }).id === undefined) continue;
      const next = await answers.next();
      if (next.done) throw new Error(`serve closed its stdout after ${got.length} answer(s)`);
      got.push(next.value);
    }
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("close", resolve));
  }
  return got;
}

describe("the Python SDK's recording of cua-driver 0.28.2, replayed by `serve` (no Python needed)", () => {
  it("answers the requests it was recorded with byte for byte, all in the modern era, with nothing unmatched", async () => {
    const rec = cassette(FIXTURE);
    expect(rec.header.driver).toMatchObject({ version: "0.28.2", source: "sdk", location: "sdk:@trycua/cua-driver@0.28.2" });
    expect(rec.streams).toBe(1); // the Python client probes on its own stream (no sibling process)
    // the recording is the Python SDK's own traffic: its client info, its default era probe first
    expect(JSON.parse(rec.c2s[0]!)).toMatchObject({
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "mcp" } } },
    });
    await using dir = await tmpDir();
    const log = path.join(dir.path, "log.jsonl");
    const got = await serveLines(FIXTURE, rec.c2s, log);
    expect(got).toEqual(rec.s2c);
    const entries = readLog(log);
    const requests = entries.filter((e) => e.type === "request");
    // the answers the recorder's stand-in built (marked in the cassette) are logged as synthesized, with their basis
    expect(requests.map((e) => [e.method, e.tool ?? null, e.era, e.outcome, e.synthesized ?? null])).toEqual([
      ["server/discover", null, "modern", "replayed", "discover"],
      ["tools/list", null, "modern", "replayed", null],
      ["call", "get_config", "modern", "replayed", null],
      ["call", "list_windows", "modern", "replayed", null],
      ["resources/list", null, "modern", "replayed", "skill_pack"],
      ["resources/read", null, "modern", "replayed", "skill_pack"],
    ]);
    expect((requests[5]!.basis as { detail: string }).detail).toContain("docs/reference/cua-driver-skills-named-commits, not a 0.28.x release's pack");
    expect(entries.at(-1)).toMatchObject({ type: "summary", served: 6, unmatched: 0, synthesized: 3, unused: [] });
  }, 60_000);
});
