// The prober, driver contracts, diff and bump gate.
export { probeBinary, resolveExecutable, DEFAULT_STEP_TIMEOUT_MS } from "./run-binary.js";
export { probeSdk } from "./run-sdk.js";
export { acquireSnapshot, type SnapshotSource } from "./acquire.js";
export { readSnapshot } from "./read-snapshot.js";
export { readContract } from "./read-contract.js";
export { loadSurface } from "./load-surface.js";
export { checkContract, probeFailed, type CheckReport, type CheckItem, type Gap } from "#src/contract/check.js";
export { contractFromSnapshot } from "#src/contract/contract-init.js";
export { diffSurfaces, type DriverDiff } from "#src/contract/diff.js";
export { surfaceOfSnapshot, surfaceOfToolsList, surfaceOfDocument, type DriverSurface } from "#src/contract/surface.js";
export { isFailing, type Change, type ChangeKind, type Severity } from "#src/contract/change.js";
export { satisfies, parseVersion } from "#src/util/versions.js";
export { checkSchema, supportsSchema } from "#src/contract/schema-check.js";
export { runGate, type GateOptions, type GateReport } from "./gate/run-gate.js";
export { runMatrix, type MatrixOptions, type MatrixReport, type MatrixRow } from "./gate/run-matrix.js";
export { sdkSnapshot, type CachedSnapshot, type SnapshotOrigin } from "./snapshot-cache.js";
