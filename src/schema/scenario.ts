import { z } from "zod";
import { FaultPlanSchema } from "./fault-plan.js";
import { GuardIdSchema, HarnessActionSchema, StepDecisionSchema, VerdictOutcomeSchema } from "./harness-step.js";

/**
 * A scenario contract (contracts/scenarios/*.json): a cassette, a fault plan, a step script in the
 * reference harness's action vocabulary, and what must come out of it. `cua-contract check` runs it.
 */

/** Ids of the traffic invariants (src/invariants). */
export const InvariantIdSchema = z.enum([
  "no-replay-after-unknown",
  "rebuild-before-mutation",
  "no-input-after-stale",
  "retry-read-only-only",
  "no-unknown-tools",
  "empty-is-not-absent",
  "bounded-retries",
  "no-resend-after-refusal",
  "no-use-after-hang",
  "no-done-on-unchanged",
  "bounded-waits-after-stall",
  "era-metadata-on-every-request",
]);

const ScenarioIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "a scenario id is lower-case kebab-case (letters, digits, -)");

/** What must hold after one step (1-based `step` into `steps`). */
export const StepExpectationSchema = z
  .object({
    step: z.number().int().positive(),
    decision: StepDecisionSchema.optional(),
    /** The guard that must have refused the step. */
    blocked_by: GuardIdSchema.optional(),
    /** The verdict outcome the step must reach. */
    outcome: VerdictOutcomeSchema.optional(),
    /** Text the step's note must contain (each, case-insensitive). */
    note_contains: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
    /** Tools the step must have called (in this order, others may come between). */
    calls: z.array(z.string().min(1)).optional(),
    /** Tools the step must not have called. */
    not_calls: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type StepExpectation = z.infer<typeof StepExpectationSchema>;

export const ScenarioExpectSchema = z
  .object({
    steps: z.array(StepExpectationSchema).default([]),
    /** Invariants that must hold over the replay log: `all`, or a list of ids. */
    invariants: z.union([z.literal("all"), z.array(InvariantIdSchema)]).default("all"),
    /** Exit code an external harness (`check --cmd`) must end with. */
    exit_code: z.number().int().min(0).max(255).default(0),
  })
  .strict();
export type ScenarioExpect = z.infer<typeof ScenarioExpectSchema>;

/**
 * A scenario file (docs/scenarios.md): the flow a harness runs, the faults injected and the
 * invariants judged.
 */
export const ScenarioSchema = z
  .object({
    $schema: z.string().optional(),
    id: ScenarioIdSchema,
    title: z.string().min(1),
    description: z.string().optional(),
    /** Cassette directory, relative to the scenario file. */
    cassette: z.string().min(1),
    faults: FaultPlanSchema.default({ rules: [] }),
    /** Seed for probabilistic fault rules (the plan's own seed wins). */
    seed: z.number().int().default(0),
    /** Per-call timeout the harness uses, in ms (timeouts in the fault plan fire against it). */
    timeout_ms: z.number().int().positive().optional(),
    steps: z.array(HarnessActionSchema).min(1),
    expect: ScenarioExpectSchema.default({ steps: [], invariants: "all", exit_code: 0 }),
    invariant_options: z
      .object({
        max_repeats: z.number().int().positive().optional(),
        /** Opt-in: at most this many identical requests in a row, whatever the driver answered. */
        max_identical: z.number().int().positive().optional(),
        stale_codes: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    /** Where the scenario came from (e.g. `fuzz --save`, with the seed and path). */
    origin: z.string().optional(),
  })
  .strict();
/** A scenario as `ScenarioSchema` parses it. */
export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
