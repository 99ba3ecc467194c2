import { PASS } from "#src/harness/core/guard-result.js";
import { BLOCKED_KEY_COMBOS } from "#src/harness/core/key-combo.js";
import { failClosedPolicy, type HarnessParts } from "#src/harness/core/session-parts.js";
import { classifyActionResult } from "#src/harness/core/verdict.js";
import { strictWindowListPolicy } from "#src/harness/core/window-list.js";

/** Names of the deliberately broken reference-harness variants `fuzz --mutants` must catch. */
export type MutantName =
  | "resend-timed-out-click"
  | "never-rebuild-session"
  | "unverifiable-is-done"
  | "trust-empty-window-list"
  | "raw-key-combo"
  | "ignore-frame-lease";

export interface Mutant {
  name: MutantName;
  /** The bug, in one line. */
  bug: string;
  parts: Partial<HarnessParts>;
}

/** Each mutant swaps exactly one part of the reference harness for a plausible broken one. */
export const MUTANTS: readonly Mutant[] = [
  {
    name: "resend-timed-out-click",
    bug: "re-sends a mutation (e.g. a click) whose call timed out",
    parts: {
      unknownOutcome: { ...failClosedPolicy, afterMutationFailure: () => ({ resend: true, suspect: false, requireObservation: false }) },
    },
  },
  {
    name: "never-rebuild-session",
    bug: "never rebuilds the session after a timeout or daemon death",
    parts: { rebuild: { rebuild: async () => true } },
  },
  {
    name: "unverifiable-is-done",
    bug: "treats an unverifiable effect as done",
    parts: {
      classify(reply, context) {
        const verdict = classifyActionResult(reply, context);
        return verdict.outcome === "unconfirmed" ? { decision: "done", outcome: "confirmed", note: "Done." } : verdict;
      },
    },
  },
  {
    name: "trust-empty-window-list",
    bug: "trusts an empty window list as proof that no windows exist",
    parts: {
      windowList: {
        assess(reply) {
          const list = strictWindowListPolicy.assess(reply);
          return list.status === "partial" ? { status: "complete", windows: [] } : list;
        },
        windowsAfter: strictWindowListPolicy.windowsAfter,
      },
    },
  },
  {
    name: "raw-key-combo",
    bug: "compares key combos as typed, without canonicalising aliases, case or order",
    parts: {
      keyCombo(keys) {
        const typed = (typeof keys === "string" ? keys : keys.join("+")).trim();
        const hit = BLOCKED_KEY_COMBOS.find((combo) => combo.join("+") === typed);
        return hit ? { ok: false, code: "blocked_key_combo", note: `Blocked key combo ${typed}.` } : PASS;
      },
    },
  },
  {
    name: "ignore-frame-lease",
    bug: "sends coordinate clicks without checking the layout they were aimed from is still current",
    parts: { frameLease: () => PASS },
  },
];

export const MUTANT_NAMES: readonly MutantName[] = MUTANTS.map((m) => m.name);
