import { z } from "zod";

/**
 * The reference harness's action vocabulary: what a model (or a scenario's step script) asks the
 * harness to do, one step at a time. A closed union; scenario files contain these verbatim.
 */

const Pid = z.number().int().positive();
const WindowId = z.number().int().positive();
/** An observation id returned by an earlier step (`obs-1`, `obs-2`, …), or `latest`. */
const FrameId = z.string().regex(/^(obs-[1-9][0-9]*|latest)$/, "a frame is obs-<n> (from an earlier observation) or latest");

const Target = {
  pid: Pid.optional(),
  window_id: WindowId.optional(),
};

/** The `observe` action: a fresh look at the screen, or at one window. */
export const ObserveActionSchema = z.object({ action: z.literal("observe"), ...Target, query: z.string().optional() }).strict();
/** The `list_windows` action. */
export const ListWindowsActionSchema = z.object({ action: z.literal("list_windows") }).strict();
/** The `get_window_state` action: one window's elements. */
export const GetWindowStateActionSchema = z
  .object({ action: z.literal("get_window_state"), pid: Pid, window_id: WindowId, query: z.string().optional() })
  .strict();

/** The `click` action: an element by token or index, or a point. */
export const ClickActionSchema = z
  .object({
    action: z.literal("click"),
    ...Target,
    element_token: z
      .string()
      .regex(/^s[0-9a-f]{8}:[0-9]+$/, "an element_token is s<8 hex>:<index>")
      .optional(),
    x: z.number().optional(),
    y: z.number().optional(),
    /** The observation the coordinates were aimed from (the layout lease). */
    frame: FrameId.optional(),
    button: z.enum(["left", "right", "middle"]).optional(),
    delivery_mode: z.enum(["background", "foreground"]).optional(),
  })
  .strict()
  .refine((a) => (a.element_token !== undefined) !== (a.x !== undefined && a.y !== undefined), {
    message: "a click takes either element_token or both x and y",
  });

/** The `type_text` action. */
export const TypeTextActionSchema = z
  .object({
    action: z.literal("type_text"),
    ...Target,
    text: z.string(),
    element_token: z.string().optional(),
    delivery_mode: z.enum(["background", "foreground"]).optional(),
  })
  .strict();
/** The `press_key` action. */
export const PressKeyActionSchema = z
  .object({ action: z.literal("press_key"), ...Target, key: z.string().min(1), delivery_mode: z.enum(["background", "foreground"]).optional() })
  .strict();
/** The `hotkey` action: keys pressed together. */
export const HotkeyActionSchema = z
  .object({
    action: z.literal("hotkey"),
    ...Target,
    keys: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    delivery_mode: z.enum(["background", "foreground"]).optional(),
  })
  .strict();
/** The `set_window_frame` action: a window's position and size. */
export const SetWindowFrameActionSchema = z
  .object({
    action: z.literal("set_window_frame"),
    pid: Pid,
    window_id: WindowId,
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  })
  .strict();
/** The `wait` action, up to 60 s. */
export const WaitActionSchema = z.object({ action: z.literal("wait"), ms: z.number().int().min(0).max(60_000) }).strict();
/** Any other driver tool, by name: read-only tools are observations, the rest are mutations. */
export const CallActionSchema = z.object({ action: z.literal("call"), tool: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }).strict();

/** Any action a harness session takes (one of the action schemas). */
export const HarnessActionSchema = z.union([
  ObserveActionSchema,
  ListWindowsActionSchema,
  GetWindowStateActionSchema,
  ClickActionSchema,
  TypeTextActionSchema,
  PressKeyActionSchema,
  HotkeyActionSchema,
  SetWindowFrameActionSchema,
  WaitActionSchema,
  CallActionSchema,
]);
/** An action as `HarnessActionSchema` parses it. */
export type HarnessAction = z.infer<typeof HarnessActionSchema>;
/** The name of a harness action. */
export type HarnessActionName = HarnessAction["action"];

/** The names of the actions a harness session knows. */
export const HARNESS_ACTION_NAMES: readonly HarnessActionName[] = [
  "observe",
  "list_windows",
  "get_window_state",
  "click",
  "type_text",
  "press_key",
  "hotkey",
  "set_window_frame",
  "wait",
  "call",
];

/**
 * What a step tells the harness: `done`, `verify_fresh_state`, `escalate`, or refused (`blocked`,
 * `paused`).
 */
export const StepDecisionSchema = z.enum(["done", "verify_fresh_state", "escalate", "blocked", "paused"]);
/** A step's decision. */
export type StepDecision = z.infer<typeof StepDecisionSchema>;

/** What a verdict says happened on screen: confirmed, unconfirmed, no effect, refused or unknown. */
export const VerdictOutcomeSchema = z.enum(["confirmed", "unconfirmed", "no_effect", "refused", "unknown"]);
/** What a verdict says happened on screen. */
export type VerdictOutcome = z.infer<typeof VerdictOutcomeSchema>;

/** A driver reply classified: the decision, the outcome and a note for the model. */
export const VerdictSchema = z
  .object({
    decision: z.enum(["done", "verify_fresh_state", "escalate"]),
    outcome: VerdictOutcomeSchema,
    recommended: z.string().optional(),
    note: z.string(),
  })
  .strict();
/** A verdict as `VerdictSchema` parses it. */
export type Verdict = z.infer<typeof VerdictSchema>;

/** Ids of the guards that can refuse a step before any input is sent. */
export const GuardIdSchema = z.enum([
  "key_combo",
  "typed_text",
  "unknown_action",
  "input_target",
  "stale_click",
  "stale_frame",
  "stale_element_token",
  "window_unobserved",
  "fresh_state_required",
  "loop_guard",
  "batch_budget",
  "session_unavailable",
  "bad_action",
  "refused_unchanged",
]);
/** The id of a guard that can refuse a step. */
export type GuardId = z.infer<typeof GuardIdSchema>;

/** One driver call the step made, in order. */
export const StepCallSchema = z
  .object({
    tool: z.string(),
    args: z.record(z.string(), z.unknown()),
    /** Why the harness made it. */
    purpose: z.enum(["action", "observe", "lease_check", "refresh", "rebuild", "revive", "retry", "startup"]),
    /** ok | is_error | timeout | transport_error | daemon_died */
    result: z.enum(["ok", "is_error", "timeout", "transport_error", "daemon_died"]),
  })
  .strict();
/** One driver call a step made. */
export type StepCall = z.infer<typeof StepCallSchema>;

/** The result of one step: its decision and verdict, the guard that refused it, and the calls it made. */
export const StepResultSchema = z
  .object({
    decision: StepDecisionSchema,
    verdict: VerdictSchema.optional(),
    blockedBy: GuardIdSchema.optional(),
    note: z.string(),
    calls: z.array(StepCallSchema),
    /** The observation this step produced, if any (frame id and the model-facing text). */
    observation: z.object({ frame: z.string(), text: z.string(), partial: z.boolean() }).strict().optional(),
  })
  .strict();
/** A step's result as `StepResultSchema` parses it. */
export type StepResult = z.infer<typeof StepResultSchema>;
