import { z } from "zod";

/**
 * A fault plan: rules that inject the failures a harness must survive. The first rule whose
 * match holds fires; the same plan and seed always give the same run (docs/faults.md).
 */

export const FaultMatchSchema = z
  .object({
    /** Tool name, or a glob with `*` and `?` (e.g. `get_*`). */
    tool: z.string().min(1).optional(),
    kind: z.enum(["mutation", "read", "any"]).optional(),
    /** Fire on the nth request (1-based) that passes the tool/kind filter. */
    nth: z.number().int().positive().optional(),
    /** Fire on every nth request that passes the tool/kind filter. */
    every: z.number().int().positive().optional(),
    /** Fire with this probability, drawn from the plan's seeded generator. */
    probability: z.number().min(0).max(1).optional(),
  })
  .strict();
/** Which calls a fault rule picks: by tool, by kind (mutation or read), and which of them (the nth, every nth). */
export type FaultMatch = z.infer<typeof FaultMatchSchema>;

const ms = z.number().int().nonnegative();

/** A delay's parameters (the `delay` kind's, and a late refusal's `delay`). */
const DelayParamsShape = {
  /** The delay; with a distribution, its centre (uniform) or median (lognormal). */
  ms,
  /** `fixed` (default; `uniform` when jitter_ms is given): drawn per request from the plan's seed. */
  distribution: z.enum(["fixed", "uniform", "lognormal"]).optional(),
  /** uniform: the delay is drawn from [ms − jitter_ms, ms + jitter_ms] (never below 0). */
  jitter_ms: ms.optional(),
  /** lognormal: the spread, σ of the log of the delay (default 0.5: a quarter of draws exceed 1.4 × ms). */
  sigma: z.number().positive().max(4).optional(),
  /** Cap on a drawn delay. */
  max_ms: ms.optional(),
};
export const DelayParamsSchema = z.object(DelayParamsShape).strict();
export type DelayParams = z.infer<typeof DelayParamsSchema>;

export const FaultSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("hang") }).strict(),
  z.object({ kind: z.literal("delay"), ...DelayParamsShape }).strict(),
  z.object({ kind: z.literal("timeout_after_effect") }).strict(),
  z.object({ kind: z.literal("timeout_before_effect") }).strict(),
  z.object({ kind: z.literal("daemon_down"), socket: z.string().optional() }).strict(),
  z
    .object({
      kind: z.literal("daemon_died_midcall"),
      /** MCP only: `direct` (the default on Linux: the process dies, stdout EOF) or `proxy` (-32603). */
      mode: z.enum(["direct", "proxy"]).optional(),
      socket: z.string().optional(),
    })
    .strict(),
  z.object({ kind: z.literal("exit"), code: z.number().int().min(0).max(255), stderr: z.string().optional() }).strict(),
  z
    .object({
      kind: z.literal("truncated"),
      /** Keep this fraction of the output (0 < f < 1); default 0.5. */
      keep: z.number().gt(0).lt(1).optional(),
    })
    .strict(),
  z.object({ kind: z.literal("corrupt_image") }).strict(),
  z.object({ kind: z.literal("empty") }).strict(),
  z
    .object({
      kind: z.literal("refusal"),
      code: z.string().min(1),
      message: z.string().optional(),
      /** The refusal arrives late: a delay drawn as the `delay` kind draws it (e.g. 13–26 s). */
      delay: DelayParamsSchema.optional(),
    })
    .strict(),
  /** From the matched call on, every answer is late by `ms`, until the harness rebuilds (docs/faults.md). */
  z.object({ kind: z.literal("stall"), ms: z.number().int().positive() }).strict(),
  /** From the matched call on, nothing is answered until the harness rebuilds (a new process, or start_session). */
  z.object({ kind: z.literal("freeze") }).strict(),
  /** A mutation answered as delivered that changed nothing: later reads show the screen as it was. */
  z.object({ kind: z.literal("no_effect") }).strict(),
  /** The answer grown past `bytes` on one line (a larger image, as a high-resolution screen gives). */
  z.object({ kind: z.literal("oversized"), bytes: z.number().int().positive() }).strict(),
  /**
   * The driver ends the session: calls are refused `session_ended` while health and session-status
   * reads stay healthy, until start_session. `after_ms`: only once the harness has sent no
   * session call for that long (the driver's idle timeout).
   */
  z.object({ kind: z.literal("session_expired"), after_ms: ms.optional() }).strict(),
  /**
   * The driver refuses the request at the protocol level, as cua-driver ≥ 0.28 refuses a request
   * of the 2026-07-28 era (docs/eras.md): `unsupported_version` (-32022, `data.supported`),
   * `missing_protocol_version` or `missing_client_capabilities` (-32602). Nothing reaches a tool.
   */
  z
    .object({
      kind: z.literal("protocol_error"),
      reason: z.enum(["unsupported_version", "missing_protocol_version", "missing_client_capabilities"]),
      /** unsupported_version: the versions `data.supported` lists (default: the driver's, `["2026-07-28"]`). */
      supported: z.array(z.string().min(1)).min(1).optional(),
    })
    .strict(),
]);
/** Why a `protocol_error` fault refuses the request. */
export type ProtocolErrorReason = Extract<z.infer<typeof FaultSchema>, { kind: "protocol_error" }>["reason"];
/** One fault, by `kind`, with its parameters. */
export type Fault = z.infer<typeof FaultSchema>;

/** The fault kinds, read off FaultSchema's variants in their order (never restated). */
export const FaultKindSchema = z.enum(FaultSchema.options.map((variant) => variant.shape.kind.value));
export type FaultKind = z.infer<typeof FaultKindSchema>;

export const FaultRuleSchema = z.object({ match: FaultMatchSchema, fault: FaultSchema }).strict();
/** A rule of a fault plan: which calls it matches and the fault they get. */
export type FaultRule = z.infer<typeof FaultRuleSchema>;

/** A fault plan (docs/faults.md): rules that pick calls and the fault each gets, and a seed. */
export const FaultPlanSchema = z
  .object({
    seed: z.number().int().optional(),
    rules: z.array(FaultRuleSchema),
  })
  .strict();
/** A fault plan as `FaultPlanSchema` parses it. */
export type FaultPlan = z.infer<typeof FaultPlanSchema>;
