import { boundedRetries } from "./bounded-retries.js";
import { boundedWaitsAfterStall } from "./bounded-waits-after-stall.js";
import { noDoneOnUnchanged } from "./no-done-on-unchanged.js";
import { emptyIsNotAbsent } from "./empty-is-not-absent.js";
import { eraMetadataOnEveryRequest } from "./era-metadata-on-every-request.js";
import { noInputAfterStale } from "./no-input-after-stale.js";
import { noReplayAfterUnknown } from "./no-replay-after-unknown.js";
import { noResendAfterRefusal } from "./no-resend-after-refusal.js";
import { noUnknownTools } from "./no-unknown-tools.js";
import { noUseAfterHang } from "./no-use-after-hang.js";
import { rebuildBeforeMutation } from "./rebuild-before-mutation.js";
import { retryReadOnlyOnly } from "./retry-read-only-only.js";
import type { Invariant, InvariantId } from "./types.js";

/**
 * Every bundled invariant by id, in the order reports list them. A `Record` over the schema's ids
 * (src/schema/scenario.ts, where scenario files name them), so an id without an invariant, or an
 * invariant without an id, fails the type-check.
 */
const BY_ID: Record<InvariantId, Invariant> = {
  "no-replay-after-unknown": noReplayAfterUnknown,
  "rebuild-before-mutation": rebuildBeforeMutation,
  "no-input-after-stale": noInputAfterStale,
  "retry-read-only-only": retryReadOnlyOnly,
  "no-unknown-tools": noUnknownTools,
  "empty-is-not-absent": emptyIsNotAbsent,
  "bounded-retries": boundedRetries,
  "no-resend-after-refusal": noResendAfterRefusal,
  "no-use-after-hang": noUseAfterHang,
  "no-done-on-unchanged": noDoneOnUnchanged,
  "bounded-waits-after-stall": boundedWaitsAfterStall,
  "era-metadata-on-every-request": eraMetadataOnEveryRequest,
};

/** Every bundled invariant, in the order reports list them. */
export const INVARIANTS: readonly Invariant[] = Object.values(BY_ID);

/** The ids of the traffic invariants, in the order reports list them (docs/invariants.md). */
export const INVARIANT_IDS: readonly InvariantId[] = INVARIANTS.map((i) => i.id);

export function isInvariantId(id: string): id is InvariantId {
  return (INVARIANT_IDS as readonly string[]).includes(id);
}
