import { z } from "zod";

export const GATE_VERDICT_FORMAT = "cua-gate-verdict";

const JunitCaseSchema = z
  .object({
    name: z.string(),
    classname: z.string().optional(),
    time: z.number().optional(),
    failure: z.object({ message: z.string(), type: z.string().optional(), details: z.string().optional() }).strict().optional(),
    skipped: z.string().optional(),
  })
  .strict();

/**
 * One version's verdict in `gate --matrix`, kept in the private cache under a key made of every
 * input it depends on (the judging code, the working directory, the contract, the expected
 * failures, the baseline, the recordings and the version's snapshot, each by path, size and
 * modification time): a rerun with nothing changed re-judges nothing.
 */
export const GateVerdictSchema = z
  .object({
    format: z.literal(GATE_VERDICT_FORMAT),
    version: z.literal(1),
    driver_version: z.string(),
    verdict: z.enum(["pass", "fail", "unreachable"]),
    failing: z.array(z.string()),
    failures: z.array(z.object({ id: z.string(), message: z.string() }).strict()),
    stale_recordings: z.array(z.object({ id: z.string(), missing: z.array(z.string()), message: z.string() }).strict()),
    outside: z.array(z.string()),
    skipped: z.array(z.string()),
    junit: z.array(JunitCaseSchema),
  })
  .strict();
export type GateVerdict = z.infer<typeof GateVerdictSchema>;
