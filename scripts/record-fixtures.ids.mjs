// Re-recording gtk3-demo-mcp gives the app a new pid, its window a new id and its elements new
// tokens; the scenarios that replay it name those. This carries the change over: the harness's
// tool calls of the old and the new recording are paired in order, each differing pid, window_id
// and element_token gives an old → new pair, and the scenario steps that name an old value get the new one.
// The pairing holds only while the flow is the same: a different sequence of calls is reported,
// and the scenarios are left for a person to update.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const FIELDS = ["pid", "window_id", "element_token"];

/** The tool calls the harness made in a cassette's text (MCP requests or per-call CLI argv), in order. */
export function harnessCalls(cassetteText) {
  const calls = [];
  for (const line of cassetteText.trim().split("\n").slice(1)) {
    const event = JSON.parse(line);
    if (event.origin === "recorder") continue;
    if (event.kind === "mcp" && event.dir === "c2s" && typeof event.line === "string") {
      const message = JSON.parse(event.line);
      if (message.method === "tools/call") calls.push({ tool: message.params.name, args: message.params.arguments ?? {} });
    } else if (event.kind === "cli" && event.argv[0] === "call") {
      calls.push({ tool: event.argv[1], args: event.argv[2] ? JSON.parse(event.argv[2]) : {} });
    }
  }
  return calls;
}

/** Old → new values, or the reason the two recordings cannot be paired. */
export function idChanges(before, after) {
  const flow = (calls) => calls.map((c) => c.tool).join(",");
  if (flow(before) !== flow(after)) return { problem: `the recorded flow changed (${before.length} → ${after.length} calls, or another order)` };
  const changes = new Map();
  for (const [i, old] of before.entries()) {
    for (const field of FIELDS) {
      const from = old.args[field];
      const to = after[i].args[field];
      if (from === undefined || from === to) continue;
      const key = JSON.stringify(from);
      if (changes.has(key) && changes.get(key) !== to)
        return { problem: `${field} ${key} became both ${JSON.stringify(changes.get(key))} and ${JSON.stringify(to)}` };
      changes.set(key, to);
    }
  }
  return { changes };
}

/** Rewrites the scenario files in `dir` whose cassette is `cassetteDir`; returns the files changed. */
export function updateScenarios({ dir, cassetteDir, changes }) {
  const changed = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const file = path.join(dir, name);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    if (path.resolve(dir, doc.cassette) !== path.resolve(cassetteDir)) continue;
    let edits = 0;
    for (const step of doc.steps) {
      for (const field of FIELDS) {
        const to = changes.get(JSON.stringify(step[field]));
        if (step[field] !== undefined && to !== undefined) {
          step[field] = to;
          edits++;
        }
      }
    }
    if (edits === 0) continue;
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    changed.push(file);
  }
  return changed;
}
