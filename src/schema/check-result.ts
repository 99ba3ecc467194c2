import { z } from "zod";
import { InvariantIdSchema } from "./scenario.js";
import { StepResultSchema } from "./harness-step.js";

/**
 * The result of `cua-contract check`: the document `--json` prints and the HTML report renders.
 */

export const EvidenceSchema = z.object({ requests: z.array(z.number().int()), tools: z.array(z.string()), faults: z.array(z.string()) }).strict();

export const InvariantResultSchema = z
  .object({
    id: InvariantIdSchema,
    statement: z.string(),
    passed: z.boolean(),
    violations: z.array(z.object({ invariant: InvariantIdSchema, message: z.string(), evidence: EvidenceSchema }).strict()),
  })
  .strict();

export const CheckFailureSchema = z
  .object({
    /** What was judged: a step expectation, an invariant, the harness's exit code, or the run itself. */
    kind: z.enum(["decision", "blocked_by", "outcome", "note", "calls", "invariant", "exit_code", "error"]),
    /** 1-based step, for step expectations. */
    step: z.number().int().positive().optional(),
    invariant: InvariantIdSchema.optional(),
    message: z.string(),
    evidence: EvidenceSchema.optional(),
  })
  .strict();
export type CheckFailure = z.infer<typeof CheckFailureSchema>;

export const ScenarioResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    file: z.string(),
    cassette: z.string(),
    /** Provenance of the cassette (header driver.source). */
    source: z.string().optional(),
    passed: z.boolean(),
    duration_ms: z.number().nonnegative(),
    failures: z.array(CheckFailureSchema),
    invariants: z.array(InvariantResultSchema),
    /** The reference harness's step results (in-process runs only). */
    steps: z.array(StepResultSchema.extend({ step: z.number().int().positive(), action: z.string() })).optional(),
    /** External harness runs: its exit code. */
    exit_code: z.number().int().nullable().optional(),
    requests: z.number().int().nonnegative(),
  })
  .strict();
/** One scenario's outcome in a check result. */
export type ScenarioResult = z.infer<typeof ScenarioResultSchema>;

/** The result file `cua-contract check --json` writes: each scenario's outcome and the totals. */
export const CheckResultSchema = z
  .object({
    harness: z.string(),
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    duration_ms: z.number().nonnegative(),
    scenarios: z.array(ScenarioResultSchema),
  })
  .strict();
/** A check result as `CheckResultSchema` parses it. */
export type CheckResult = z.infer<typeof CheckResultSchema>;
