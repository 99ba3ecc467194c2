import { boundedRetries } from "./bounded-retries.js";
import { emptyIsNotAbsent } from "./empty-is-not-absent.js";
import { noInputAfterStale } from "./no-input-after-stale.js";
import { noReplayAfterUnknown } from "./no-replay-after-unknown.js";
import { noUnknownTools } from "./no-unknown-tools.js";
import { rebuildBeforeMutation } from "./rebuild-before-mutation.js";
import { retryReadOnlyOnly } from "./retry-read-only-only.js";
import type { Invariant, InvariantId } from "./types.js";

/** Every bundled invariant, in the order reports list them. */
export const INVARIANTS: readonly Invariant[] = [
  noReplayAfterUnknown,
  rebuildBeforeMutation,
  noInputAfterStale,
  retryReadOnlyOnly,
  noUnknownTools,
  emptyIsNotAbsent,
  boundedRetries,
];

export const INVARIANT_IDS: readonly InvariantId[] = INVARIANTS.map((i) => i.id);

export function isInvariantId(id: string): id is InvariantId {
  return (INVARIANT_IDS as readonly string[]).includes(id);
}
