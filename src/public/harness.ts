// `cua-contract/harness`: the reference harness core, the Driver port every harness talks to, its
// adapters (per-call CLI, MCP, the runtime in process) and the published runtime they drive.
export {
  isTransportFailure,
  type CallOptions,
  type Clock,
  type ContentBlock,
  type Driver,
  type Reply,
  type ToolAnnotations,
  type ToolInfo,
  type ToolResult,
  type TransportFailure,
  type TransportFailureKind,
} from "#src/driver/port.js";
export { systemClock } from "#src/runtime/clock-system.js";

// verdicts and what a reply says
export {
  classifyActionResult,
  mostSevereVerdict,
  type ClassifyContext,
  type Verdict,
  type VerdictDecision,
  type VerdictOutcome,
} from "#src/harness/core/verdict.js";
export { readReplyFields, refusalCode, isSessionEnded, type ReplyFields } from "#src/harness/core/reply-fields.js";

// guards and budgets
export { PASS, type GuardResult } from "#src/harness/core/guard-result.js";
export { checkKeyCombo, canonicalKeys, BLOCKED_KEY_COMBOS } from "#src/harness/core/key-combo.js";
export { checkTypedText, foldWhitespace, BLOCKED_TEXT_PATTERNS } from "#src/harness/core/typed-text.js";
export { nearestAction, type NearestAction } from "#src/harness/core/nearest-action.js";
export { checkInputTarget, type InputTarget } from "#src/harness/core/input-target.js";
export {
  checkStaleClick,
  recordClick,
  recordObservation,
  initialStaleClickState,
  STALE_CLICK_LIMIT,
  type StaleClickState,
} from "#src/harness/core/stale-click.js";
export { checkFrameLease, layoutOf, layoutDifference, type Layout } from "#src/harness/core/frame-lease.js";
export {
  strictWindowListPolicy,
  parseWindowRows,
  type WindowInfo,
  type WindowList,
  type WindowListPolicy,
  type WindowListStatus,
} from "#src/harness/core/window-list.js";
export { parseWindowState, type WindowState, type ElementInfo } from "#src/harness/core/window-state.js";
export {
  formatObservation,
  OBSERVATION_BUDGET,
  type ObservationBudget,
  type ObservationInput,
  type FormattedObservation,
} from "#src/harness/core/observation.js";
export {
  checkLoopGuard,
  recordLoopStep,
  resumeLoopGuard,
  initialLoopGuardState,
  LOOP_LIMITS,
  type LoopGuardState,
  type LoopStep,
} from "#src/harness/core/loop-guard.js";
export { checkBatchSize, checkWaitBudget, BATCH_LIMITS } from "#src/harness/core/batch-budget.js";
export { checkToolsAgainstContract, type ContractCheckResult } from "#src/harness/core/contract-check.js";

// the session
export { createHarnessSession } from "#src/harness/session.js";
export {
  defaultHarnessParts,
  failClosedPolicy,
  startSessionRebuilder,
  type HarnessParts,
  type UnknownOutcomePolicy,
  type SessionRebuilder,
  type RebuildContext,
} from "#src/harness/core/session-parts.js";
export {
  DEFAULT_LABEL,
  type HarnessSession,
  type HarnessSessionOptions,
  type HarnessSessionState,
  type BatchResult,
  type Frame,
} from "#src/harness/core/session.js";
export {
  ObserveActionSchema,
  ListWindowsActionSchema,
  GetWindowStateActionSchema,
  ClickActionSchema,
  TypeTextActionSchema,
  PressKeyActionSchema,
  HotkeyActionSchema,
  SetWindowFrameActionSchema,
  WaitActionSchema,
  CallActionSchema,
  HarnessActionSchema,
  HARNESS_ACTION_NAMES,
  StepDecisionSchema,
  VerdictOutcomeSchema,
  VerdictSchema,
  GuardIdSchema,
  StepCallSchema,
  StepResultSchema,
  type HarnessAction,
  type HarnessActionName,
  type StepDecision,
  type GuardId,
  type StepCall,
  type StepResult,
} from "#src/schema/harness-step.js";

// the screen
export { screenChange, SCREEN_CHANGE_DEFAULTS, type ScreenChange, type ScreenChangeKind, type ScreenChangeOptions } from "#src/harness/screen/screen-change.js";
export { diffImage, type DiffImage } from "#src/harness/screen/diff-image.js";
export { perceptualCompareFrames } from "#src/harness/screen/compare-frames.js";

// the Driver adapters, and the published runtime
export { createCliDriver, type CliDriverOptions } from "#src/transports/cli/driver.js";
export { createMcpDriver, type McpDriver, type McpDriverOptions } from "#src/transports/mcp/driver.js";
export { createSdkDriver, type InProcessSdkDriver, type SdkDriverOptions } from "#src/transports/sdk/driver.js";
export { inProcessDriver } from "#src/transports/inprocess/driver.js";
export { loadSdk, locateSdk, publishedSdkVersions, DEFAULT_SDK_VERSION, type LoadSdkOptions, type SdkLocation } from "#src/runtime/load.js";
export { createSdkBackend, type SdkBackend } from "#src/transports/sdk/sdk-backend.js";
