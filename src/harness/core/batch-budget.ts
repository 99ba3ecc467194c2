import { PASS, type GuardResult } from "./guard-result.js";

/** The batch limits: steps per batch, and the wait time the steps share. */
export const BATCH_LIMITS = { maxSteps: 64, waitBudgetMs: 60_000 } as const;

/** Refuses a batch that is empty or longer than `BATCH_LIMITS.maxSteps`. */
export function checkBatchSize(steps: number): GuardResult {
  if (steps >= 1 && steps <= BATCH_LIMITS.maxSteps) return PASS;
  return {
    ok: false,
    code: "batch_too_large",
    note: steps < 1 ? "A batch needs at least one step." : `A batch holds at most ${BATCH_LIMITS.maxSteps} steps; this one has ${steps}. Nothing was run.`,
  };
}

/** Waits in one batch share one budget; a wait that would overrun it fails instead of being cut short. */
export function checkWaitBudget(options: { usedMs: number; waitMs: number; budgetMs?: number }): GuardResult {
  const budget = options.budgetMs ?? BATCH_LIMITS.waitBudgetMs;
  if (options.usedMs + options.waitMs <= budget) return PASS;
  return {
    ok: false,
    code: "wait_budget_exhausted",
    note: `The batch's waits share ${budget / 1000} s; ${options.usedMs} ms are used and this wait asks for ${options.waitMs} ms.`,
  };
}
