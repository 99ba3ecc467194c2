import { UserError } from "#src/errors.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { INVARIANTS, INVARIANT_IDS, isInvariantId } from "./registry.js";
import type { InvariantId, InvariantOptions, InvariantReport } from "./types.js";

export interface RunInvariantsOptions {
  /** Ids to check; all when absent. */
  only?: readonly string[];
  options?: InvariantOptions;
}

/** Judges one replay log against the invariants. Unknown ids are a usage error naming the valid ones. */
export function runInvariants(entries: readonly ReplayLogEntry[], run: RunInvariantsOptions = {}): InvariantReport {
  const ids = selectInvariants(run.only);
  const results = INVARIANTS.filter((i) => ids.includes(i.id)).map((inv) => {
    const violations = inv.check(entries, run.options ?? {});
    return { id: inv.id, statement: inv.statement, passed: violations.length === 0, violations };
  });
  return {
    passed: results.every((r) => r.passed),
    requests: entries.filter((e) => e.type === "request").length,
    results,
  };
}

export function selectInvariants(only: readonly string[] | undefined, field = "--invariants"): InvariantId[] {
  if (!only) return [...INVARIANT_IDS];
  const unknown = only.filter((id) => !isInvariantId(id));
  if (unknown.length > 0) {
    throw new UserError(`unknown invariant ${unknown.map((u) => `"${u}"`).join(", ")}`, {
      code: "USAGE",
      field,
      fix: `Use one or more of: ${INVARIANT_IDS.join(", ")}.`,
    });
  }
  return only.filter(isInvariantId);
}
