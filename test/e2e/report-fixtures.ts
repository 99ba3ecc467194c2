import { writeFileSync } from "node:fs";
import { createReplayer } from "#src/replay/replayer.js";
import { loadReplayCassette } from "#src/replay/load.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";

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
