import { HARNESS_MUTATING_ACTIONS } from "#src/driver/catalogue.js";
import { TRANSPORT_FAULTS } from "#src/faults/fault-table.js";
import type { HarnessAction, StepResult } from "#src/schema/harness-step.js";
import type { RequestEntry, ReplayLogEntry } from "#src/schema/replay-log.js";

/** Ids of the fuzzer's checks on the harness's own decisions (beside the traffic invariants). */
export type OracleId = "unproven-not-done" | "empty-list-partial" | "stale-lease-respected" | "step-expectation";

export interface OracleFailure {
  id: OracleId;
  step: number;
  message: string;
}

/** Each step's calls paired with the replay-log requests they produced (the in-process replayer logs one per call, in order). */
export function pairCalls(steps: readonly StepResult[], log: readonly ReplayLogEntry[]): RequestEntry[][] {
  const requests = log.filter((e): e is RequestEntry => e.type === "request");
  let next = 0;
  return steps.map((s) => s.calls.map(() => requests[next++]).filter((r): r is RequestEntry => r !== undefined));
}

function failedList(r: RequestEntry): boolean {
  if (r.outcome === "unmatched" || r.result?.isError === true || r.result?.empty === true) return true;
  return r.fault !== undefined && (TRANSPORT_FAULTS.has(r.fault.kind) || r.fault.kind === "refusal" || r.fault.kind === "empty");
}

/**
 * Properties of the decisions themselves, judged from what was actually served:
 * - unproven-not-done: a mutation step is `done` only when the driver confirmed the effect;
 * - empty-list-partial: an observation whose window list came back empty or failed is not `done`;
 * - stale-lease-respected: a pixel click aimed from an observation taken before the window
 *   was moved is not sent.
 */
export function checkOracles(options: { actions: readonly HarnessAction[]; steps: readonly StepResult[]; log: readonly ReplayLogEntry[] }): OracleFailure[] {
  const { actions, steps } = options;
  const paired = pairCalls(steps, options.log);
  const out: OracleFailure[] = [];
  steps.forEach((result, i) => {
    const action = actions[i];
    const requests = paired[i] ?? [];
    if (!action) return;
    if (HARNESS_MUTATING_ACTIONS.has(action.action) && result.decision === "done") {
      const sent = result.calls
        .map((c, j) => ({ c, r: requests[j] }))
        .filter(({ c }) => c.purpose === "action" || c.purpose === "retry")
        .at(-1)?.r;
      if (sent?.result?.effect !== "confirmed") {
        out.push({
          id: "unproven-not-done",
          step: i + 1,
          message: `step ${i + 1} (${action.action}) was called done, but the driver served ${describe(sent)}`,
        });
      }
    }
    if ((action.action === "observe" || action.action === "list_windows") && result.decision === "done") {
      // the last answer the observation got (a read may be retried after a transport failure)
      const list = result.calls
        .map((c, j) => ({ c, r: requests[j] }))
        .filter(({ c }) => c.tool === "list_windows" && (c.purpose === "observe" || c.purpose === "retry"))
        .at(-1)?.r;
      if (list && failedList(list)) {
        out.push({
          id: "empty-list-partial",
          step: i + 1,
          message: `step ${i + 1} (${action.action}) was called done, but its window list #${list.n} came back ${describe(list)}`,
        });
      }
    }
    if (action.action === "click" && action.frame?.startsWith("obs-") && result.calls.some((c) => c.tool === "click")) {
      const from = steps.findIndex((s) => s.observation?.frame === action.frame);
      const moved = from >= 0 ? movedBetween({ actions, paired, from, to: i }) : undefined;
      if (moved !== undefined) {
        out.push({
          id: "stale-lease-respected",
          step: i + 1,
          message: `step ${i + 1} sent a pixel click aimed from ${action.frame}, but step ${moved + 1} moved the window after that observation`,
        });
      }
    }
  });
  return out;
}

/** The step (index) after `from` and before `to` whose set_window_frame took effect, if any. */
function movedBetween(o: { actions: readonly HarnessAction[]; paired: readonly RequestEntry[][]; from: number; to: number }): number | undefined {
  for (let j = o.from + 1; j < o.to; j++) {
    if (o.actions[j]?.action !== "set_window_frame") continue;
    if ((o.paired[j] ?? []).some((r) => r.tool === "set_window_frame" && r.epoch_after > r.epoch_before)) return j;
  }
  return undefined;
}

function describe(r: RequestEntry | undefined): string {
  if (!r) return "nothing (no call was made)";
  if (r.outcome === "unmatched") return `no answer (#${r.n} matched nothing)`;
  if (r.fault) return `a ${r.fault.kind} fault (#${r.n})`;
  if (r.result?.empty) return `an empty list (#${r.n})`;
  if (r.result?.refusal_code) return `a refusal ${r.result.refusal_code} (#${r.n})`;
  return `effect ${r.result?.effect ?? "none"} (#${r.n})`;
}
