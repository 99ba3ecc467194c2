import type { Cassette } from "#src/cassette/index.js";
import { readExchanges, toolOf } from "#src/cassette/exchanges/index.js";
import { UserError } from "#src/errors.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";

/**
 * A replay log names the cassette events that answered it only by `seq`, so a `--cassette` other
 * than the one replayed would show another recording's screenshots beside these calls. Refuses a
 * cassette in which an answering event is missing or is a call to another tool.
 */
export function checkLogCassette(options: { entries: readonly ReplayLogEntry[]; cassette: Cassette; logFile: string }): void {
  const bySeq = new Map(options.cassette.events.map((e) => [e.seq, e]));
  // the tool each request calls, by the seq of the request's event
  const calls = new Map<number, string>();
  for (const x of readExchanges(options.cassette.events, { answers: false })) {
    const tool = toolOf(x);
    if (tool !== undefined) calls.set(x.request.event.seq, tool);
  }
  for (const entry of options.entries) {
    if (entry.type !== "request" || entry.matched_seq === undefined || entry.tool === undefined) continue;
    const event = bySeq.get(entry.matched_seq);
    const recorded = calls.get(entry.matched_seq);
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
