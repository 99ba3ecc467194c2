// The public surface of cua-contract. Each part adds its names here.
export { UserError, isUserError, type UserErrorCode } from "./errors.js";
export * from "./driver/port.js";
export { isReadOnlyTool, READ_ONLY_TOOLS_0_21 } from "./driver/catalogue.js";
export * from "./schema/cassette.js";
export * from "./schema/replay-log.js";
export * from "./cassette/index.js";
export {
  classifyActionResult,
  mostSevereVerdict,
  checkKeyCombo,
  checkTypedText,
  nearestAction,
  checkInputTarget,
  checkStaleClick,
  checkFrameLease,
  formatObservation,
  checkLoopGuard,
  recordLoopStep,
  screenChange,
  diffImage,
  createHarnessSession,
  createCliDriver,
  createMcpDriver,
  createSdkDriver,
  inProcessDriver,
  type Verdict,
  type GuardResult,
  type HarnessSession,
  type HarnessSessionOptions,
  type HarnessParts,
  type HarnessAction,
  type StepResult,
  type ScreenChange,
} from "./harness/index.js";
export { loadSdk, locateSdk, publishedSdkVersions, DEFAULT_SDK_VERSION, type LoadSdkOptions, type SdkLocation } from "./transports/sdk/load.js";
export { createSdkBackend, type SdkBackend } from "./transports/sdk/sdk-backend.js";
export { startDesktop, stopDesktop, type Desktop, type DesktopOptions } from "./desktop/desktop.js";
export { importTrajectory, type ImportTrajectoryOptions, type ImportSummary } from "./import/import-trajectory.js";
export { readTrajectory } from "./import/read-trajectory.js";
export { writeReport, writeCheckReport, buildReport, type ScreenFunctions, type ReportStats } from "./report/html/write-report.js";
export { renderReport } from "./report/html/render-report.js";
export {
  runInvariants,
  formatInvariantReport,
  INVARIANTS,
  INVARIANT_IDS,
  type InvariantId,
  type InvariantOptions,
  type InvariantReport,
  type InvariantResult,
  type Violation,
} from "./invariants/index.js";
export { ScenarioSchema, InvariantIdSchema, type Scenario } from "./schema/scenario.js";
export { CheckResultSchema, type CheckResult, type ScenarioResult } from "./schema/check-result.js";
export {
  createReplayer,
  loadReplayCassette,
  createVirtualClock,
  parseFaultPlan,
  FaultPlanSchema,
  type Replayer,
  type ReplayerOptions,
  type ReplayCassette,
  type ReplaySummary,
  type FaultPlan,
  type Fault,
} from "./replay/index.js";
export * from "./probe/index.js";
export * from "./schema/probe-snapshot.js";
export * from "./schema/driver-contract.js";
export * from "./schema/gate-baseline.js";
