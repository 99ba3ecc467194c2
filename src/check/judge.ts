import type { CheckFailure } from "#src/schema/check-result.js";
import type { StepResult } from "#src/schema/harness-step.js";
import type { StepExpectation } from "#src/schema/scenario.js";
import type { InvariantReport } from "#src/invariants/types.js";

/** Step expectations against the harness's step results; one failure per unmet expectation. */
export function judgeSteps(options: { expectations: readonly StepExpectation[]; steps: readonly StepResult[] }): CheckFailure[] {
  const out: CheckFailure[] = [];
  for (const e of options.expectations) {
    const got = options.steps[e.step - 1];
    if (!got) {
      out.push({ kind: "error", step: e.step, message: `step ${e.step} did not run` });
      continue;
    }
    out.push(...judgeStep(e, got));
  }
  return out;
}

function judgeStep(e: StepExpectation, got: StepResult): CheckFailure[] {
  const out: CheckFailure[] = [];
  const at = `step ${e.step}`;
  if (e.decision && got.decision !== e.decision) {
    out.push({ kind: "decision", step: e.step, message: `${at}: expected decision ${e.decision}, got ${got.decision} (${got.note})` });
  }
  if (e.blocked_by && got.blockedBy !== e.blocked_by) {
    out.push({ kind: "blocked_by", step: e.step, message: `${at}: expected the ${e.blocked_by} guard to block it, got ${got.blockedBy ?? "no guard"}` });
  }
  if (e.outcome && got.verdict?.outcome !== e.outcome) {
    out.push({ kind: "outcome", step: e.step, message: `${at}: expected verdict outcome ${e.outcome}, got ${got.verdict?.outcome ?? "no verdict"}` });
  }
  const wanted = e.note_contains === undefined ? [] : Array.isArray(e.note_contains) ? e.note_contains : [e.note_contains];
  for (const text of wanted) {
    if (!got.note.toLowerCase().includes(text.toLowerCase())) {
      out.push({ kind: "note", step: e.step, message: `${at}: note does not contain "${text}" (note: ${got.note})` });
    }
  }
  const tools = got.calls.map((c) => c.tool);
  if (e.calls && !isSubsequence(e.calls, tools)) {
    out.push({ kind: "calls", step: e.step, message: `${at}: expected calls ${e.calls.join(" → ")} in order, got ${tools.join(" → ") || "none"}` });
  }
  for (const tool of e.not_calls ?? []) {
    if (tools.includes(tool)) out.push({ kind: "calls", step: e.step, message: `${at}: must not call ${tool}, but did (${tools.join(" → ")})` });
  }
  return out;
}

function isSubsequence(wanted: readonly string[], got: readonly string[]): boolean {
  let i = 0;
  for (const t of got) if (t === wanted[i]) i++;
  return i === wanted.length;
}

/** One failure per violation of an invariant the scenario requires. */
export function judgeInvariants(report: InvariantReport): CheckFailure[] {
  return report.results.flatMap((r) =>
    r.violations.map((v) => ({ kind: "invariant" as const, invariant: r.id, message: `${r.id}: ${v.message}`, evidence: v.evidence })),
  );
}
