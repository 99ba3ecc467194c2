// The public surface of cua-contract: the names a harness team uses, listed one by one (a test
// pins the list). Everything else stays behind the subpath exports (cua-contract/harness,
// /replay, /msw, /testing, /vitest) or is internal.

// errors
export { UserError, isUserError, type UserErrorCode } from "./errors.js";

// the Driver port every harness talks to
export {
  isTransportFailure,
  type Driver,
  type Reply,
  type ToolResult,
  type TransportFailure,
  type TransportFailureKind,
  type ContentBlock,
  type ToolInfo,
  type ToolAnnotations,
  type CallOptions,
  type Clock,
} from "./driver/port.js";

// cassettes: read, write, restore
export {
  readCassette,
  readCassetteSync,
  scanCassette,
  readEventAt,
  readFrame,
  restoreBytes,
  restoreText,
  openCassetteWriter,
  summarizeCassette,
  createRedactor,
  type Cassette,
  type CassetteScan,
  type CassetteWriter,
  type CassetteEventInput,
  type CassetteSummary,
  type Redactor,
} from "./cassette/index.js";
export {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  CassetteHeaderSchema,
  CassetteEventSchema,
  type CassetteHeader,
  type CassetteEvent,
} from "./schema/cassette.js";
export { ReplayLogEntrySchema, type ReplayLogEntry, type RequestEntry, type SummaryEntry } from "./schema/replay-log.js";

// the reference harness core
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

// replay
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

// traffic invariants and scenarios
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
export { ScenarioSchema, type Scenario } from "./schema/scenario.js";
export { CheckResultSchema, type CheckResult, type ScenarioResult } from "./schema/check-result.js";

// the published runtime and a desktop to run it on
export { loadSdk, locateSdk, publishedSdkVersions, DEFAULT_SDK_VERSION, type LoadSdkOptions, type SdkLocation } from "./runtime/load.js";
export { createSdkBackend, type SdkBackend } from "./transports/sdk/sdk-backend.js";
export { startDesktop, stopDesktop, type Desktop, type DesktopOptions } from "./desktop/desktop.js";

// probe, contract, gate, verify
export {
  probeBinary,
  probeSdk,
  acquireSnapshot,
  readSnapshot,
  readContract,
  checkContract,
  contractFromSnapshot,
  diffSurfaces,
  runGate,
  runMatrix,
  type CheckReport,
  type DriverDiff,
  type GateOptions,
  type GateReport,
  type MatrixOptions,
  type MatrixReport,
} from "./probe/index.js";
export { runVerify, type VerifyOptions, type VerifyReport } from "./verify/run-verify.js";
export { ProbeSnapshotSchema, type ProbeSnapshot } from "./schema/probe-snapshot.js";
export { DriverContractSchema, type DriverContract } from "./schema/driver-contract.js";
export { ExpectedFailuresSchema, type ExpectedFailures } from "./schema/gate-baseline.js";

// trajectories and reports
export { importTrajectory, type ImportTrajectoryOptions, type ImportSummary } from "./import/import-trajectory.js";
export { readTrajectory } from "./import/read-trajectory.js";
export { writeReport, writeCheckReport, buildReport, type ScreenFunctions, type ReportStats } from "./report/write-report.js";
export { renderReport } from "./report/html/render-report.js";
