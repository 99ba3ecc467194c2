import { z } from "zod";

export const EXPECTED_FAILURES_FORMAT = "cua-expected-failures";

/**
 * Known gate failures, by stable id (`contract:tool:invoke_menu`, `diff:annotation_changed:…`,
 * `recording:<cassette>#<event>:<tool>:<part>:<path>`). A failure not listed fails the gate; so
 * does a listed one that no longer happens (the list is stale).
 */
export const ExpectedFailuresSchema = z
  .object({
    format: z.literal(EXPECTED_FAILURES_FORMAT),
    version: z.literal(1),
    failures: z.array(z.object({ id: z.string().min(1), reason: z.string().optional() }).strict()),
  })
  .strict();
/** A gate baseline as `ExpectedFailuresSchema` parses it. */
export type ExpectedFailures = z.infer<typeof ExpectedFailuresSchema>;
