import { performance } from "node:perf_hooks";
import type { ProbeStep, ProbeStepName } from "#src/schema/probe-snapshot.js";
import type { StepOutcome } from "#src/transports/mcp/probe-eras.js";

/** What a step runner reports: its data, or why it has none (the MCP client's steps share the shape). */
export type { StepOutcome };

/** Runs one probe step, timing it; a thrown error becomes a failed step, never a crash. */
export async function runStep<T>(step: ProbeStepName, steps: ProbeStep[], body: () => Promise<StepOutcome<T>>): Promise<T | undefined> {
  const { outcome, ms } = await timeStep(body);
  return recordStep(step, steps, outcome, ms);
}

/** Runs a step body, timing it; a thrown error becomes a failed outcome. */
export async function timeStep<T>(body: () => Promise<StepOutcome<T>>): Promise<{ outcome: StepOutcome<T>; ms: number }> {
  const started = performance.now();
  let outcome: StepOutcome<T>;
  try {
    outcome = await body();
  } catch (error) {
    outcome = { status: "failed", message: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
  }
  return { outcome, ms: Math.round(performance.now() - started) };
}

/** Records a step whose outcome was produced elsewhere (e.g. inside one MCP session). */
export function recordStep<T>(step: ProbeStepName, steps: ProbeStep[], outcome: StepOutcome<T>, durationMs: number): T | undefined {
  const record: ProbeStep = { step, status: outcome.status, duration_ms: durationMs };
  if (outcome.message) record.message = outcome.message;
  if (outcome.status !== "succeeded" && outcome.timedOut) record.timed_out = true;
  steps.push(record);
  return outcome.status === "succeeded" ? outcome.value : undefined;
}
