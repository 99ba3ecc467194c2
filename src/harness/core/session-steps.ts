import type { ToolInfo } from "#src/driver/port.js";
import { isReadOnlyTool } from "#src/driver/catalogue.js";
import { refusalHas } from "#src/driver/refusals.js";
import { HarnessActionSchema, HARNESS_ACTION_NAMES, type HarnessAction, type StepResult } from "#src/schema/harness-step.js";
import { checkBatchSize, checkWaitBudget } from "./batch-budget.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import { checkLoopGuard, initialLoopGuardState, recordLoopStep, resumeLoopGuard, type LoopGuardState } from "./loop-guard.js";
import { nearestAction } from "./nearest-action.js";
import { StepRecorder, blocked, isFailedStep } from "./step-recorder.js";

/** The outcome of a batch: its decision, each step's result, and where it stopped. */
export interface BatchResult {
  decision: StepResult["decision"];
  steps: StepResult[];
  /** Index of the step the batch stopped at, when one failed. */
  stoppedAt?: number;
  note: string;
}

/** Steps and batches: each action parsed, run under the loop guard; a batch within its size and wait budgets. */
export interface StepRunner {
  step(action: HarnessAction): Promise<StepResult>;
  batch(actions: readonly HarnessAction[]): Promise<BatchResult>;
  /** Clears a loop-guard pause. */
  resume(): void;
  readonly loop: LoopGuardState;
}

export function createStepRunner(options: {
  /** Startup and rebuild before the action; a result when the session cannot go on. */
  ready(rec: StepRecorder): Promise<StepResult | undefined>;
  run(rec: StepRecorder, action: HarnessAction): Promise<StepResult>;
  /** The driver's tools as listed so far (a read-only `call` is an observation to the loop guard). */
  tools(): readonly ToolInfo[] | undefined;
}): StepRunner {
  let loop = initialLoopGuardState();
  /** Actions the driver refused since the last look or carried-out mutation (canonical action → why). */
  const refused = new Map<string, string>();

  function loopKind(action: HarnessAction): "observation" | "wait" | "mutation" {
    if (action.action === "wait") return "wait";
    if (action.action === "observe" || action.action === "list_windows" || action.action === "get_window_state") return "observation";
    if (action.action === "call" && isReadOnlyTool(action.tool, options.tools())) return "observation";
    return "mutation";
  }

  async function step(input: HarnessAction): Promise<StepResult> {
    const rec = new StepRecorder();
    const parsed = HarnessActionSchema.safeParse(input);
    if (!parsed.success) {
      const name = typeof (input as { action?: unknown })?.action === "string" ? String((input as { action: string }).action) : "";
      if (name && !HARNESS_ACTION_NAMES.includes(name as HarnessAction["action"])) {
        return blocked(rec, "unknown_action", nearestAction(name, HARNESS_ACTION_NAMES).note);
      }
      const issue = parsed.error.issues[0];
      return blocked(
        rec,
        "bad_action",
        `Bad ${name || "action"}: ${issue ? `${issue.path.join(".") || "action"}: ${issue.message}` : "invalid"}. Nothing was sent.`,
      );
    }
    const action = parsed.data;
    const paused = checkLoopGuard(loop);
    if (!paused.ok) return rec.result({ decision: "paused", blockedBy: "loop_guard", note: paused.note });
    const kind = loopKind(action);
    const actionKey = canonicalJson(action);
    const refusedBefore = kind === "mutation" ? refused.get(actionKey) : undefined;
    // a refusal is the driver's answer to that request in that state: the same request again gets it again
    const again =
      refusedBefore !== undefined
        ? blocked(
            rec,
            "refused_unchanged",
            `The driver refused this exact ${action.action} (${refusedBefore}) and nothing has changed since: sent unchanged it is refused again. Change it (the refusal's recommended route, another target) or look again first. Nothing was sent.`,
          )
        : undefined;
    const notReady = again ? undefined : await options.ready(rec);
    const result = again ?? notReady ?? (await options.run(rec, action));
    rememberRefusal(kind, actionKey, result);
    const error =
      result.blockedBy ??
      (result.verdict && result.verdict.outcome !== "confirmed" && result.verdict.outcome !== "unconfirmed"
        ? `${result.verdict.outcome}:${result.verdict.note}`
        : undefined);
    const sentCall = result.calls.filter((c) => c.purpose === "action").at(-1);
    const key = sentCall ? `${sentCall.tool} ${canonicalJson(sentCall.args)}` : canonicalJson(action);
    loop = recordLoopStep(loop, { kind, key, sent: sentCall !== undefined, failed: isFailedStep(result), ...(error ? { error } : {}) });
    const nowPaused = checkLoopGuard(loop);
    if (!nowPaused.ok && result.decision !== "blocked") return { ...result, note: `${result.note} ${nowPaused.note}` };
    return result;
  }

  /** Keeps the refused actions current: a look, a rebuild or a carried-out mutation may change the driver's answer. */
  function rememberRefusal(kind: "observation" | "wait" | "mutation", key: string, result: StepResult): void {
    if (result.blockedBy !== undefined) return;
    // a rebuild comes before the step's own call: it clears what was refused before, and the step's own refusal still counts
    if (result.calls.some((c) => c.purpose === "rebuild" || c.purpose === "revive" || c.purpose === "startup")) refused.clear();
    if (kind === "observation") {
      if (!isFailedStep(result)) refused.clear();
      return;
    }
    if (kind !== "mutation" || !result.verdict) return;
    // the driver's own refusal with its code; a stale token or an ended session has guards of its own
    const code = /^The driver refused \(([^)]+)\)/.exec(result.verdict.note)?.[1];
    if (result.verdict.outcome === "refused") {
      // a "not now" refusal (input_busy): the same request later is the right move
      if (code !== undefined && !refusalHas(code, "not-now")) refused.set(key, code);
    } else if (result.verdict.outcome !== "unknown") refused.clear();
  }

  async function batch(actions: readonly HarnessAction[]): Promise<BatchResult> {
    const size = checkBatchSize(actions.length);
    if (!size.ok) {
      const rec = new StepRecorder();
      return { decision: "blocked", steps: [blocked(rec, "batch_budget", size.note)], stoppedAt: 0, note: size.note };
    }
    const steps: StepResult[] = [];
    let waited = 0;
    for (const [i, action] of actions.entries()) {
      let result: StepResult;
      if (action.action === "wait") {
        const budget = checkWaitBudget({ usedMs: waited, waitMs: action.ms });
        result = budget.ok ? await step(action) : blocked(new StepRecorder(), "batch_budget", budget.note);
        if (budget.ok) waited += action.ms;
      } else {
        result = await step(action);
      }
      steps.push(result);
      if (isFailedStep(result)) {
        const note = `Stopped at step ${i + 1} of ${actions.length} (${action.action}): ${result.note}`;
        return { decision: result.decision, steps, stoppedAt: i, note };
      }
    }
    const worst = steps.reduce((w, s) => (rank(s.decision) > rank(w.decision) ? s : w), steps[0]!);
    return { decision: worst.decision, steps, note: `All ${actions.length} steps ran.${worst.decision === "done" ? "" : ` ${worst.note}`}` };
  }

  return {
    step,
    batch,
    resume() {
      loop = resumeLoopGuard();
    },
    get loop() {
      return loop;
    },
  };
}

function rank(decision: StepResult["decision"]): number {
  return { done: 0, verify_fresh_state: 1, escalate: 2, blocked: 3, paused: 4 }[decision];
}
