import type { Reply } from "#src/driver/port.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { UNKNOWN_OUTCOME_FAULTS } from "#src/faults/fault-table.js";
import type { RequestEntry, ReplayLogEntry, ServedResult } from "#src/schema/replay-log.js";
import type { InvariantReport } from "#src/invariants/types.js";
import { prettyArgs, shotsOf, viewExchanges, type ExchangeView } from "./cassette-rows.js";
import type { ReportProblem, ReportRow } from "./model.js";
import { verdictOf } from "./summarize-result.js";

function servedSummary(entry: RequestEntry): { summary: string; isError: boolean } {
  if (entry.outcome === "unmatched") return { summary: `unmatched: ${entry.unmatched?.reason ?? "no recorded request matches"}`, isError: true };
  const r: ServedResult = entry.result ?? {};
  const parts: string[] = [];
  if (entry.fault && UNKNOWN_OUTCOME_FAULTS.includes(entry.fault.kind)) parts.push(`no answer (${entry.fault.kind})`);
  if (r.isError) parts.push("error");
  if (r.refusal_code) parts.push(r.refusal_code);
  if (r.effect) parts.push(`effect ${r.effect}`);
  if (r.empty) parts.push("empty");
  if (r.window_ids?.length) parts.push(`window${r.window_ids.length === 1 ? "" : "s"} ${r.window_ids.join(", ")}`);
  if (r.exit_code !== undefined && r.exit_code !== null && r.exit_code !== 0) parts.push(`exit ${r.exit_code}`);
  return { summary: parts.length > 0 ? parts.join(", ") : "ok", isError: Boolean(r.isError || r.refusal_code) };
}

// What the harness was served, as a Reply, so the reference verdict can judge it.
function servedReply(entry: RequestEntry): Reply {
  const tool = entry.tool ?? entry.method;
  if (entry.fault && UNKNOWN_OUTCOME_FAULTS.includes(entry.fault.kind)) {
    return { kind: entry.fault.kind === "daemon_died_midcall" ? "daemon_died" : "timeout", tool };
  }
  const r = entry.result ?? {};
  const structured: Record<string, unknown> = {};
  if (r.effect) structured.effect = r.effect;
  if (r.refusal_code) structured.code = r.refusal_code;
  return { content: [], structuredContent: structured, ...(r.isError ? { isError: true } : {}) };
}

export function rowId(prefix: string, n: number): string {
  return `${prefix}call-${n}`;
}

/**
 * The timeline of a replay run: one row per request the harness made, with what it was served,
 * the fault injected and the epochs. With the cassette, each row shows the recorded screenshots.
 */
export function replayLogRows(options: {
  entries: readonly ReplayLogEntry[];
  cassette?: { events: readonly CassetteEvent[]; dir: string };
  idPrefix: string;
}): ReportRow[] {
  const bySeq = new Map<number, ExchangeView>();
  if (options.cassette) for (const view of viewExchanges({ events: options.cassette.events })) bySeq.set(view.exchange.seq, view);
  const rows: ReportRow[] = [];
  for (const entry of options.entries) {
    if (entry.type !== "request") continue;
    const { summary, isError } = servedSummary(entry);
    const recorded = entry.matched_seq !== undefined ? bySeq.get(entry.matched_seq) : undefined;
    const fault = entry.fault
      ? `${entry.fault.kind}${entry.fault.params ? ` ${JSON.stringify(entry.fault.params)}` : ""} (rule ${entry.fault.rule})`
      : undefined;
    rows.push({
      id: rowId(options.idPrefix, entry.n),
      label: `#${entry.n}`,
      t_ms: entry.t_ms,
      method: entry.method,
      ...(entry.tool !== undefined ? { tool: entry.tool } : {}),
      ...(entry.args !== undefined ? { args: prettyArgs(entry.args) } : {}),
      kind: entry.kind,
      result: summary + (recorded && entry.outcome === "replayed" ? ` — recorded: ${recorded.summary}` : ""),
      ...(recorded?.resultText
        ? {
            resultDetail:
              recorded.resultText.length > 8_000 ? `${recorded.resultText.slice(0, 8_000)}… (${recorded.resultText.length} characters)` : recorded.resultText,
          }
        : {}),
      isError,
      ...(entry.kind === "mutation" && entry.outcome !== "unmatched" ? { verdict: verdictOf(servedReply(entry), entry.tool) } : {}),
      outcome: entry.outcome,
      ...(fault ? { fault } : {}),
      epochBefore: entry.epoch_before,
      epochAfter: entry.epoch_after,
      shots: recorded && options.cassette ? shotsOf(recorded, options.cassette.dir) : [],
    });
  }
  return rows;
}

/**
 * Failed invariants and unmatched requests, each linking to its rows. Unused recorded mutations are
 * not failures here: replay passes with them unless run with --fail-on-unused (see replayLogNotes).
 */
export function replayLogProblems(options: { entries: readonly ReplayLogEntry[]; invariants?: InvariantReport; idPrefix: string }): ReportProblem[] {
  const problems: ReportProblem[] = [];
  for (const result of options.invariants?.results ?? []) {
    for (const v of result.violations) {
      problems.push({
        kind: "invariant",
        title: result.id,
        message: `${v.message}${v.evidence.faults.length > 0 ? ` (faults: ${v.evidence.faults.join(", ")})` : ""}`,
        links: v.evidence.requests.map((n) => ({ row: rowId(options.idPrefix, n), label: `#${n}` })),
      });
    }
  }
  for (const entry of options.entries) {
    if (entry.type === "request" && entry.outcome === "unmatched") {
      problems.push({
        kind: "unmatched",
        title: "unmatched request",
        message: `${entry.tool ?? entry.method}: ${entry.unmatched?.reason ?? "no recorded request matches"}${entry.unmatched?.path ? ` (differs at ${entry.unmatched.path})` : ""}`,
        links: [{ row: rowId(options.idPrefix, entry.n), label: `#${entry.n}` }],
      });
    }
  }
  return problems;
}

/** What a replay log reports that is not a failure by default: recorded mutations the harness never sent. */
export function replayLogNotes(entries: readonly ReplayLogEntry[]): string[] {
  const summary = entries.find((e) => e.type === "summary");
  if (summary?.type !== "summary") return [];
  const unused = summary.unused.filter((u) => u.kind === "mutation");
  if (unused.length === 0) return [];
  const list = unused.map((u) => `seq ${u.seq}${u.tool ? ` (${u.tool})` : ""}`).join(", ");
  return [`${unused.length} recorded mutation(s) never replayed: ${list}. Replay fails on these only with --fail-on-unused.`];
}
