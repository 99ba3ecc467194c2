// `cua-contract`: what the command line does, as functions (probe, gate, verify, check, import,
// report, the traffic invariants), with the schemas of their files. The rest is in the subpath it
// belongs to: `cua-contract/harness` (the harness core, the Driver port and its adapters),
// `/replay` (cassettes and replaying them), `/testing`, `/msw` and `/vitest`.

// errors
export { UserError, isUserError, type UserErrorCode } from "#src/errors.js";

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
} from "#src/invariants/index.js";
export { ScenarioSchema, type Scenario } from "#src/schema/scenario.js";
export { CheckResultSchema, type CheckResult, type ScenarioResult } from "#src/schema/check-result.js";

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
} from "#src/probe/index.js";
export { runVerify, type VerifyOptions, type VerifyReport } from "#src/verify/run-verify.js";
export { ProbeSnapshotSchema, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";
export { DriverContractSchema, type DriverContract } from "#src/schema/driver-contract.js";
export { ExpectedFailuresSchema, type ExpectedFailures } from "#src/schema/gate-baseline.js";

// trajectories and reports
export { importTrajectory, type ImportTrajectoryOptions, type ImportSummary } from "#src/import/import-trajectory.js";
export { readTrajectory } from "#src/import/read-trajectory.js";
export { writeReport, writeCheckReport, buildReport, type ScreenFunctions, type ReportStats } from "#src/report/write-report.js";
export { renderReport } from "#src/report/html/render-report.js";
