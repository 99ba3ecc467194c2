import { z } from "zod";

export const GATE_HISTORY_FORMAT = "cua-gate-history";

/**
 * One line of a gate history file (`gate --matrix … --history FILE`, JSON Lines, append-only): the
 * verdict of every version in one matrix run, so CI can answer "the newest version this harness
 * can bump to" and see when that answer changed.
 */
export const GateHistoryEntrySchema = z
  .object({
    format: z.literal(GATE_HISTORY_FORMAT),
    version: z.literal(1),
    at: z.string(),
    contract: z.string(),
    range: z.string(),
    recordings: z.array(z.string()),
    newest_passing: z.string().nullable(),
    versions: z.array(
      z
        .object({
          version: z.string(),
          verdict: z.enum(["pass", "fail", "unreachable"]),
          failing: z.array(z.string()),
          stale_recordings: z.number().int().nonnegative(),
        })
        .strict(),
    ),
  })
  .strict();
export type GateHistoryEntry = z.infer<typeof GateHistoryEntrySchema>;
