export type {
  Evidence,
  Invariant,
  InvariantId,
  InvariantOptions,
  InvariantReport,
  InvariantResult,
  Violation,
} from "./types.js";
export { runInvariants, selectInvariants, type RunInvariantsOptions } from "./run.js";
export { INVARIANTS, INVARIANT_IDS, isInvariantId } from "./registry.js";
export { formatInvariantReport } from "./format.js";
export { KNOWN_TOOLS_0_21 } from "#src/driver/catalogue.js";
export { BATCH_MARK } from "./no-input-after-stale.js";
export { callKey, isDiscovery, requestKey } from "./canonical.js";
