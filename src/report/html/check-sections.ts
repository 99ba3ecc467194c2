import { isReadOnlyTool } from "#src/driver/catalogue.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { CheckFailure, CheckResult, ScenarioResult } from "#src/schema/check-result.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { cassetteRows } from "./cassette-rows.js";
import type { ReportLink, ReportProblem, ReportRow, ReportSection } from "./model.js";
import { replayLogRows, rowId } from "./replay-log-rows.js";

/** What a check run may hand over per scenario besides its result: the replay log and the cassette. */
export interface ScenarioExtras {
  log?: readonly ReplayLogEntry[];
  cassette?: { events: readonly CassetteEvent[]; dir: string };
}

function stepRows(scenario: ScenarioResult, prefix: string): ReportRow[] {
  return (scenario.steps ?? []).map((s) => {
    const mutation = s.calls.some((c) => !isReadOnlyTool(c.tool));
    return {
      id: `${prefix}step-${s.step}`,
      label: `step ${s.step}`,
      method: s.action,
      tool: s.action,
      args:
        s.calls.length > 0
          ? JSON.stringify(
              s.calls.map((c) => ({ tool: c.tool, args: c.args })),
              null,
              2,
            )
          : undefined,
      kind: mutation ? "mutation" : s.calls.length > 0 ? "read" : "other",
      result: `${s.decision}${s.blockedBy ? ` (blocked by ${s.blockedBy})` : ""}${s.verdict && s.verdict.note === s.note ? "" : `: ${s.note}`}`,
      isError: s.decision === "blocked" || s.decision === "escalate",
      ...(s.verdict ? { verdict: { decision: s.verdict.decision, outcome: s.verdict.outcome, note: s.verdict.note } } : {}),
      outcome: "recorded",
      shots: [],
    } satisfies ReportRow;
  });
}

function failureLinks(f: CheckFailure, prefix: string, rows: readonly ReportRow[]): ReportLink[] {
  const ids = new Set(rows.map((r) => r.id));
  const links: ReportLink[] = [];
  if (f.step !== undefined) links.push({ row: `${prefix}step-${f.step}`, label: `step ${f.step}` });
  // Without evidence, a message that names `request #n` still points at that request.
  const requests = f.evidence?.requests ?? [...f.message.matchAll(/\brequest #(\d+)/g)].map((m) => Number(m[1]));
  for (const n of requests) links.push({ row: rowId(prefix, n), label: `#${n}` });
  return links.filter((l) => ids.has(l.row));
}

function failureTitle(f: CheckFailure): string {
  if (f.invariant) return f.invariant;
  return f.step !== undefined ? `step ${f.step}: ${f.kind}` : f.kind;
}

/** One section per scenario: its failures on top, then the replay log (or the harness steps, or the recording). */
export function checkSections(options: { result: CheckResult; extras?: (scenario: ScenarioResult) => ScenarioExtras | undefined }): ReportSection[] {
  return options.result.scenarios.map((scenario, i) => {
    const prefix = `s${i}-`;
    const extras = options.extras?.(scenario);
    const steps = stepRows(scenario, prefix);
    let rows: ReportRow[];
    if (extras?.log) rows = replayLogRows({ entries: extras.log, ...(extras.cassette ? { cassette: extras.cassette } : {}), idPrefix: prefix });
    else if (extras?.cassette) rows = cassetteRows({ events: extras.cassette.events, cassetteDir: extras.cassette.dir, idPrefix: prefix });
    else rows = [];
    // Invariant violations appear in `failures` (kind "invariant") and in `invariants`; show each once.
    const failures: CheckFailure[] = [...scenario.failures];
    for (const inv of scenario.invariants) {
      for (const v of inv.violations) {
        if (!scenario.failures.some((f) => f.kind === "invariant" && f.invariant === inv.id)) {
          failures.push({ kind: "invariant", invariant: inv.id, message: v.message, evidence: v.evidence });
        }
      }
    }
    const problems: ReportProblem[] = failures.map((f) => {
      const title = failureTitle(f);
      // The title already names the step (and the invariant): the message need not repeat it.
      const stepPrefix = f.step !== undefined ? `step ${f.step}: ` : undefined;
      const message = f.message.startsWith(`${title}: `)
        ? f.message.slice(title.length + 2)
        : stepPrefix && f.message.startsWith(stepPrefix)
          ? f.message.slice(stepPrefix.length)
          : f.message;
      return { kind: f.kind, title, message, links: failureLinks(f, prefix, [...steps, ...rows]) };
    });
    const facts: Array<[string, string]> = [
      ["scenario", `${scenario.id} (${scenario.file})`],
      ["cassette", `${scenario.cassette}${scenario.source ? ` (source: ${scenario.source})` : ""}`],
      ["requests", String(scenario.requests)],
      ["duration", `${(scenario.duration_ms / 1000).toFixed(2)} s`],
    ];
    if (scenario.exit_code !== undefined) facts.push(["harness exit code", String(scenario.exit_code)]);
    return { id: `scenario-${i}`, title: scenario.title, passed: scenario.passed, facts, problems, rows, ...(steps.length > 0 ? { steps } : {}) };
  });
}
