import { z } from "zod";

/**
 * The files cua-driver's own trajectory recorder writes in each `turn-NNNNN/` folder (0.21.0,
 * `start_recording` / `cua-driver recording start`). Read by `cua-contract import`. Only the fields
 * the importer uses are required; everything else passes through untouched.
 */

/** What the driver reports about how an action was delivered (`action.json` → `action_truth`). */
export const TrajectoryActionTruthSchema = z
  .object({
    actual_delivery: z.string().nullable().optional(),
    requested_delivery: z.string().nullable().optional(),
    delivered_count: z.number().int().nullable().optional(),
    effect: z.string(),
    route: z.string(),
    transport: z.string().optional(),
    evidence: z.array(z.unknown()).optional(),
    escalation: z.object({ kind: z.string(), detail: z.string().nullable().optional() }).passthrough().nullable().optional(),
  })
  .passthrough();
export type TrajectoryActionTruth = z.infer<typeof TrajectoryActionTruthSchema>;

/** `action.json`: the mutation the turn recorded and its result. */
export const TrajectoryActionSchema = z
  .object({
    tool: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
    result_error: z.boolean(),
    /** The result's text block, exactly. */
    result_summary: z.string(),
    /** Absent when the driver refused before it resolved a delivery route. */
    action_truth: TrajectoryActionTruthSchema.optional(),
    click_point: z.object({ x: z.number(), y: z.number() }).optional(),
    t_start_ms_from_session_start: z.number().nonnegative().optional(),
    t_ms_from_session_start: z.number().nonnegative().optional(),
    /** Unix seconds with milliseconds, as a string (e.g. "1795990366.751"), at 0.21.0. */
    timestamp: z.string().optional(),
  })
  .passthrough();
export type TrajectoryAction = z.infer<typeof TrajectoryActionSchema>;

/** `before_state.json` / `after_state.json`: the accessibility state around the action. */
export const TrajectoryStateSchema = z
  .object({
    element_count: z.number().int().nonnegative(),
    pid: z.number().int(),
    window_id: z.number().int(),
    tree_markdown: z.string(),
  })
  .passthrough();
export type TrajectoryState = z.infer<typeof TrajectoryStateSchema>;

const CaptureSchema = z.object({ status: z.string(), classification: z.string().optional() }).passthrough();

/** `evidence.json`: whether each capture was taken; a missing capture is classified, not silently absent. */
export const TrajectoryEvidenceSchema = z
  .object({
    schema: z.string().optional(),
    before: z.object({ screenshot: CaptureSchema.optional(), state: CaptureSchema.optional() }).passthrough().optional(),
    after: z.object({ screenshot: CaptureSchema.optional(), state: CaptureSchema.optional() }).passthrough().optional(),
    click: CaptureSchema.optional(),
  })
  .passthrough();
export type TrajectoryEvidence = z.infer<typeof TrajectoryEvidenceSchema>;
