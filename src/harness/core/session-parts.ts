import type { Reply, ToolInfo, TransportFailure } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";
import type { Verdict } from "#src/schema/harness-step.js";
import { checkToolsAgainstContract, type ContractCheckResult } from "./contract-check.js";
import { checkFrameLease } from "./frame-lease.js";
import type { GuardResult } from "./guard-result.js";
import { checkKeyCombo } from "./key-combo.js";
import { checkTypedText } from "./typed-text.js";
import { classifyActionResult, type ClassifyContext } from "./verdict.js";
import { strictWindowListPolicy, type WindowList, type WindowListPolicy } from "./window-list.js";
import type { Layout } from "./frame-lease.js";

/** What to do after a call whose outcome is unknown (timeout, lost transport, daemon death). */
export interface UnknownOutcomePolicy {
  afterMutationFailure(failure: TransportFailure): { resend: boolean; suspect: boolean; requireObservation: boolean };
  afterReadFailure(failure: TransportFailure, attempt: number): { retry: boolean; suspect: boolean };
  /** After a `session_ended` refusal and a successful revival: may the refused call be sent again? */
  replayAfterRevival(options: { tool: string; readOnly: boolean }): boolean;
}

/** Never re-send a mutation; retry a read once after a lost transport (never after a timeout). */
export const failClosedPolicy: UnknownOutcomePolicy = {
  afterMutationFailure: () => ({ resend: false, suspect: true, requireObservation: true }),
  afterReadFailure: (failure, attempt) => ({ retry: failure.kind !== "timeout" && attempt === 0, suspect: true }),
  replayAfterRevival: ({ readOnly }) => readOnly,
};

/** What a session rebuilder gets: the session label and a way to make a driver call. */
export interface RebuildContext {
  label: string;
  /** Makes one driver call, recorded in the step as a `rebuild` call. */
  call(tool: string, args: Record<string, unknown>): Promise<Reply>;
}

/** Rebuilds a suspect session before the next call. Resolves true when the session can be used. */
export interface SessionRebuilder {
  rebuild(context: RebuildContext): Promise<boolean>;
}

export function replySucceeded(reply: Reply): boolean {
  return !isTransportFailure(reply) && reply.isError !== true;
}

/** Re-declares the session label with `start_session`; the session clears its capability cache around it. */
export const startSessionRebuilder: SessionRebuilder = {
  async rebuild({ label, call }) {
    return replySucceeded(await call("start_session", { session: label }));
  },
};

export type { ContractCheckResult } from "./contract-check.js";

/** The replaceable parts of a harness session. Swap one to test what breaks without it. */
export interface HarnessParts {
  classify(reply: Reply, context: ClassifyContext): Verdict;
  keyCombo(keys: string | readonly string[]): GuardResult;
  typedText(text: string): GuardResult;
  frameLease(options: { aimed: Layout | undefined; aimedComplete?: boolean; live: WindowList }): GuardResult;
  windowList: WindowListPolicy;
  unknownOutcome: UnknownOutcomePolicy;
  rebuild: SessionRebuilder;
  /** Whether the screen visibly changed between two screenshots (base64). Without it, bytes and trees are compared. */
  compareFrames?(previous: { data: string; mimeType: string }, next: { data: string; mimeType: string }): Promise<boolean>;
  /** Checks the driver's tools against a contract at startup (default: the prober's check on tools/list). */
  contractCheck?(options: { contract: unknown; tools: readonly ToolInfo[] }): ContractCheckResult | Promise<ContractCheckResult>;
}

/** The parts a harness session uses unless given others (docs/sessions.md). */
export const defaultHarnessParts: HarnessParts = {
  contractCheck: (options) => checkToolsAgainstContract(options),
  classify: classifyActionResult,
  keyCombo: checkKeyCombo,
  typedText: checkTypedText,
  frameLease: checkFrameLease,
  windowList: strictWindowListPolicy,
  unknownOutcome: failClosedPolicy,
  rebuild: startSessionRebuilder,
};
