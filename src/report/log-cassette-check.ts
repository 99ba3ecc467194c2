import { fromStoredBytes, parseDriverArgv, storedField, type Cassette } from "#src/cassette/index.js";
import { UserError } from "#src/errors.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";

/**
 * A replay log names the cassette events that answered it only by `seq`, so a `--cassette` other
 * than the one replayed would show another recording's screenshots beside these calls. Refuses a
 * cassette in which an answering event is missing or is a call to another tool.
 */
export function checkLogCassette(options: { entries: readonly ReplayLogEntry[]; cassette: Cassette; logFile: string }): void {
  const bySeq = new Map(options.cassette.events.map((e) => [e.seq, e]));
  for (const entry of options.entries) {
    if (entry.type !== "request" || entry.matched_seq === undefined || entry.tool === undefined) continue;
    const event = bySeq.get(entry.matched_seq);
    const recorded = event ? toolOf(event) : undefined;
    if (event && recorded === entry.tool) continue;
    const found = !event ? "no such event" : recorded ? `a call to ${recorded}` : `not a tool call (${event.kind})`;
    throw new UserError(
      `this log was not replayed from ${options.cassette.dir}: request #${entry.n} (${entry.tool}) was answered by event ${entry.matched_seq}, which there is ${found}`,
      {
        code: "USAGE",
        field: "--cassette",
        fix: `Pass the cassette that \`cua-contract replay DIR --log ${options.logFile}\` replayed, or drop --cassette.`,
      },
    );
  }
}

/** The tool an event calls, when it is a tool call. */
function toolOf(event: CassetteEvent): string | undefined {
  if (event.kind === "cli") return parseDriverArgv(event.argv).tool;
  const body = event.kind === "mcp" && event.dir === "c2s" ? text(event, "line") : event.kind === "http" ? text(event, "request.body") : undefined;
  if (body === undefined) return undefined;
  try {
    const msg = JSON.parse(body) as { method?: unknown; params?: { name?: unknown } };
    return msg.method === "tools/call" && typeof msg.params?.name === "string" ? msg.params.name : undefined;
  } catch {
    return undefined;
  }
}

function text(event: CassetteEvent, field: string): string {
  const stored = storedField(event, field);
  if (stored === undefined) return "";
  return typeof stored === "string" ? stored : fromStoredBytes(stored).toString("utf8");
}
