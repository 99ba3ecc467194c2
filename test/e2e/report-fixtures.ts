import { writeFileSync } from "node:fs";
import path from "node:path";
import { readCassetteSync } from "#src/cassette/reader.js";
import { openCassetteWriter } from "#src/cassette/writer.js";
import { createReplayer } from "#src/replay/replayer.js";
import { loadReplayCassette } from "#src/replay/load.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import { repoRoot } from "../helpers/run-cli.js";

/**
 * Replays an imported trajectory cassette in process with a careless harness: it reads the window,
 * then sends each recorded action; the first click times out after taking effect and the harness
 * sends it again without looking (what the no-replay-after-unknown invariant forbids).
 */
export async function writeCarelessReplayLog(options: {
  cassetteDir: string;
  logFile: string;
  /** What the harness types (the cassette holds only its redacted placeholder). */
  typed: string;
}): Promise<ReplayLogEntry[]> {
  const replay = loadReplayCassette(options.cassetteDir);
  const faults: FaultPlan = { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "timeout_after_effect" } }] };
  const replayer = createReplayer({ cassette: replay, faults, seed: 1 });
  const calls = replay.events.flatMap((e) => {
    if (e.kind !== "cli") return [];
    const args = JSON.parse(e.argv[2]!) as Record<string, unknown>;
    return [{ tool: e.argv[1]!, args: e.argv[1] === "type_text" ? { ...args, text: options.typed } : args }];
  });
  let resent = false;
  for (const call of calls) {
    const reply = await replayer.call(call.tool, call.args, { timeoutMs: 5_000 });
    if (!resent && call.tool === "click" && "kind" in reply) {
      resent = true;
      await replayer.call(call.tool, call.args, { timeoutMs: 5_000 });
    }
  }
  const { epoch: _epoch, ...summary } = replayer.summary();
  const entries: ReplayLogEntry[] = [...replayer.log(), summary];
  writeFileSync(options.logFile, `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`);
  return entries;
}

/**
 * A long MCP cassette of `calls` tool calls (two events each), built in the test: the header of
 * recordings/gtk3-demo-mcp, one stream, and calls alternating reads and clicks, every answer
 * distinct (its text names the call), no screenshots.
 */
export function writeLongCassette(options: { out: string; calls: number }): void {
  const header = readCassetteSync(path.join(repoRoot, "recordings/gtk3-demo-mcp"), { probe: "skip" }).header;
  const writer = openCassetteWriter({ dir: options.out, header });
  let t = 0;
  const line = (value: unknown) => JSON.stringify(value);
  writer.append({ t_ms: t, origin: "harness", kind: "mcp_open", stream: 0, argv: ["mcp"] });
  for (let id = 1; id <= options.calls; id++) {
    const click = id % 4 === 0;
    const params = click
      ? { name: "click", arguments: { pid: 100, window_id: 7, element_token: `s00000001:${id}`, session: "long" } }
      : { name: "list_windows", arguments: {} };
    const text = click ? `✅ Clicked element ${id}.` : `window 7 (pid 100): "Call ${id}"`;
    writer.append({ t_ms: (t += 1), origin: "harness", kind: "mcp", stream: 0, dir: "c2s", line: line({ jsonrpc: "2.0", id, method: "tools/call", params }) });
    writer.append({
      t_ms: (t += 1),
      origin: "harness",
      kind: "mcp",
      stream: 0,
      dir: "s2c",
      line: line({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } }),
    });
  }
  writer.close();
}
