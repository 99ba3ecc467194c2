import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../../test/helpers/tmp-dir.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { cliRequest } from "./request.js";

// Hand-built (synthetic) MCP results a real runtime would not emit, served to `cua-driver call`:
// the replay prints what cli.rs would print for them (docs/discoveries/cli-call-stdout.md).
const RESULTS: Record<string, string> = {
  get_config: '{"content":[{"text":"cfg","type":"text"}],"structuredContent":null}',
  get_screen_size: '{"content":[{"text":"size","type":"text"}],"structuredContent":{"width":1280,"height":800,"scale_factor":1.0,"width":1024}}',
  list_apps: '{"content":[{"text":"apps","type":"text"}],"structuredContent":["b","a"]}',
};

async function cassette(dir: string): Promise<void> {
  const lines: unknown[] = [
    {
      format: "cua-cassette",
      version: 1,
      transport: "mcp",
      driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic" },
      recorded_at: "2026-11-29T00:00:00.000Z",
      recorder: { name: "test", version: "1" },
    },
    { seq: 0, t_ms: 1, kind: "mcp_open", stream: 0, argv: ["mcp"] },
  ];
  let seq = 1;
  let id = 1;
  for (const [tool, result] of Object.entries(RESULTS)) {
    lines.push({
      seq: seq++,
      t_ms: seq,
      kind: "mcp",
      stream: 0,
      dir: "c2s",
      line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: {} } }),
    });
    lines.push({ seq: seq++, t_ms: seq, kind: "mcp", stream: 0, dir: "s2c", line: `{"jsonrpc":"2.0","id":${id},"result":${result}}` });
    id++;
  }
  await writeFile(path.join(dir, "cassette.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

describe("a hand-built MCP result served to `cua-driver call`", () => {
  it("prints null, a non-object structuredContent and unsorted or duplicate keys as the driver would", async () => {
    await using dir = await tmpDir();
    await cassette(dir.path);
    const s = createReplaySession({ cassette: loadReplayCassette(dir.path), clock: createVirtualClock() });
    const stdout = (tool: string) => {
      const answer = answerCli({ decision: s.decide(cliRequest({ argv: ["call", tool, "{}"] })) });
      if (answer.type !== "output") throw new Error("expected output");
      expect(answer.exitCode).toBe(0);
      return answer.stdout;
    };
    expect(stdout("get_config")).toBe("null\n");
    expect(stdout("get_screen_size")).toBe('{\n  "height": 800,\n  "scale_factor": 1.0,\n  "width": 1024\n}\n');
    expect(stdout("list_apps")).toBe('[\n  "b",\n  "a"\n]\n');
  });
});
