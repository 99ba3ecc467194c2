import type { Reply } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";
import type { GuardId, StepCall, StepResult, Verdict } from "#src/schema/harness-step.js";

/** Collects the driver calls one step makes, and builds its result. */
export class StepRecorder {
  readonly calls: StepCall[] = [];

  record(tool: string, args: Record<string, unknown>, reply: Reply, purpose: StepCall["purpose"]): void {
    const result: StepCall["result"] = isTransportFailure(reply) ? reply.kind : reply.isError === true ? "is_error" : "ok";
    this.calls.push({ tool, args, purpose, result });
  }

  result(fields: Omit<StepResult, "calls">): StepResult {
    return { ...fields, calls: [...this.calls] };
  }
}

export function blocked(rec: StepRecorder, guard: GuardId, note: string, observation?: StepResult["observation"]): StepResult {
  return rec.result({ decision: "blocked", blockedBy: guard, note, ...(observation ? { observation } : {}) });
}

export function fromVerdict(rec: StepRecorder, verdict: Verdict): StepResult {
  return rec.result({ decision: verdict.decision, verdict, note: verdict.note });
}

/** A step that stops a batch: refused, blocked, paused, or an unknown outcome. */
export function isFailedStep(result: StepResult): boolean {
  return result.decision === "escalate" || result.decision === "blocked" || result.decision === "paused" || result.verdict?.outcome === "unknown";
}
