// The reference harness core's public surface (`cua-contract/harness`).
import { createHarnessSession as createCoreSession, type HarnessSession, type HarnessSessionOptions } from "./core/session.js";
import { perceptualCompareFrames } from "./screen/compare-frames.js";

export {
  isTransportFailure,
  type CallOptions,
  type ContentBlock,
  type Driver,
  type Reply,
  type ToolAnnotations,
  type ToolInfo,
  type ToolResult,
  type TransportFailure,
  type TransportFailureKind,
} from "#src/driver/port.js";
export { classifyActionResult, mostSevereVerdict, type ClassifyContext, type Verdict, type VerdictDecision, type VerdictOutcome } from "./core/verdict.js";
export { readReplyFields, refusalCode, isSessionEnded, type ReplyFields } from "./core/reply-fields.js";
export { PASS, type GuardResult } from "./core/guard-result.js";
export { checkKeyCombo, canonicalKeys, BLOCKED_KEY_COMBOS } from "./core/key-combo.js";
export { checkTypedText, foldWhitespace, BLOCKED_TEXT_PATTERNS } from "./core/typed-text.js";
export { nearestAction, type NearestAction } from "./core/nearest-action.js";
export { checkInputTarget, type InputTarget } from "./core/input-target.js";
export { checkStaleClick, recordClick, recordObservation, initialStaleClickState, STALE_CLICK_LIMIT, type StaleClickState } from "./core/stale-click.js";
export { checkFrameLease, layoutOf, layoutDifference, type Layout } from "./core/frame-lease.js";
export { strictWindowListPolicy, parseWindowRows, type WindowInfo, type WindowList, type WindowListPolicy, type WindowListStatus } from "./core/window-list.js";
export { parseWindowState, type WindowState, type ElementInfo } from "./core/window-state.js";
export { formatObservation, OBSERVATION_BUDGET, type ObservationBudget, type ObservationInput, type FormattedObservation } from "./core/observation.js";
export { checkLoopGuard, recordLoopStep, resumeLoopGuard, initialLoopGuardState, LOOP_LIMITS, type LoopGuardState, type LoopStep } from "./core/loop-guard.js";
export { checkBatchSize, checkWaitBudget, BATCH_LIMITS } from "./core/batch-budget.js";
export { checkToolsAgainstContract } from "./core/contract-check.js";
export {
  defaultHarnessParts,
  failClosedPolicy,
  startSessionRebuilder,
  type HarnessParts,
  type UnknownOutcomePolicy,
  type SessionRebuilder,
  type RebuildContext,
  type ContractCheckResult,
} from "./core/session-parts.js";
export { DEFAULT_LABEL, type HarnessSession, type HarnessSessionOptions, type HarnessSessionState, type BatchResult, type Frame } from "./core/session.js";
export * from "#src/schema/harness-step.js";
export { screenChange, SCREEN_CHANGE_DEFAULTS, type ScreenChange, type ScreenChangeKind, type ScreenChangeOptions } from "./screen/screen-change.js";
export { diffImage, type DiffImage } from "./screen/diff-image.js";
export { perceptualCompareFrames } from "./screen/compare-frames.js";
export { createCliDriver, type CliDriverOptions } from "#src/transports/cli/driver.js";
export { createMcpDriver, type McpDriver, type McpDriverOptions } from "#src/transports/mcp/driver.js";
export { createSdkDriver, type InProcessSdkDriver, type SdkDriverOptions } from "#src/transports/sdk/driver.js";
export { inProcessDriver } from "#src/transports/inprocess/driver.js";
export { systemClock } from "#src/runtime/clock-system.js";

/**
 * The reference harness session (docs/sessions.md), with the perceptual screen comparison as its
 * `compareFrames` part unless one is given. The pure core's version compares bytes and elements.
 */
export function createHarnessSession(options: HarnessSessionOptions): HarnessSession {
  return createCoreSession({ ...options, parts: { compareFrames: perceptualCompareFrames, ...options.parts } });
}
