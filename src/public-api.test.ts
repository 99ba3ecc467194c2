// The root export is a list a user can read: every name, value or type, is pinned here, so a
// new export (or a leak of an internal through `export *`) is a deliberate change to this list.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as api from "./index.js";

const VALUES = [
  "CASSETTE_FORMAT", "CASSETTE_VERSION", "CassetteEventSchema", "CassetteHeaderSchema", "CheckResultSchema", "DEFAULT_SDK_VERSION",
  "DriverContractSchema", "ExpectedFailuresSchema", "FaultPlanSchema", "INVARIANTS", "INVARIANT_IDS", "ProbeSnapshotSchema",
  "ReplayLogEntrySchema", "ScenarioSchema", "UserError", "acquireSnapshot", "buildReport", "checkContract", "checkFrameLease",
  "checkInputTarget", "checkKeyCombo", "checkLoopGuard", "checkStaleClick", "checkTypedText", "classifyActionResult",
  "contractFromSnapshot", "createCliDriver", "createHarnessSession", "createMcpDriver", "createRedactor", "createReplayer",
  "createSdkBackend", "createSdkDriver", "createVirtualClock", "diffImage", "diffSurfaces", "formatInvariantReport",
  "formatObservation", "importTrajectory", "inProcessDriver", "isTransportFailure", "isUserError", "loadReplayCassette", "loadSdk",
  "locateSdk", "mostSevereVerdict", "nearestAction", "openCassetteWriter", "parseFaultPlan", "probeBinary", "probeSdk",
  "publishedSdkVersions", "readCassette", "readCassetteSync", "readContract", "readEventAt", "readFrame", "readSnapshot",
  "readTrajectory", "recordLoopStep", "renderReport", "restoreBytes", "restoreText", "runGate", "runInvariants", "runMatrix",
  "runVerify", "scanCassette", "screenChange", "startDesktop", "stopDesktop", "summarizeCassette", "writeCheckReport", "writeReport",
];
const TYPES = [
  "CallOptions", "Cassette", "CassetteEvent", "CassetteEventInput", "CassetteHeader", "CassetteScan", "CassetteSummary",
  "CassetteWriter", "CheckReport", "CheckResult", "Clock", "ContentBlock", "Desktop", "DesktopOptions", "Driver", "DriverContract",
  "DriverDiff", "ExpectedFailures", "Fault", "FaultPlan", "GateOptions", "GateReport", "GuardResult", "HarnessAction", "HarnessParts",
  "HarnessSession", "HarnessSessionOptions", "ImportSummary", "ImportTrajectoryOptions", "InvariantId", "InvariantOptions",
  "InvariantReport", "InvariantResult", "LoadSdkOptions", "MatrixOptions", "MatrixReport", "ProbeSnapshot", "Redactor", "Reply",
  "ReplayCassette", "ReplayLogEntry", "ReplaySummary", "Replayer", "ReplayerOptions", "ReportStats", "RequestEntry", "Scenario",
  "ScenarioResult", "ScreenChange", "ScreenFunctions", "SdkBackend", "SdkLocation", "StepResult", "SummaryEntry", "ToolAnnotations",
  "ToolInfo", "ToolResult", "TransportFailure", "TransportFailureKind", "UserErrorCode", "Verdict", "VerifyOptions", "VerifyReport",
  "Violation",
];

describe("the public API (cua-contract)", () => {
  it("exports exactly the pinned values", () => {
    expect(Object.keys(api).sort()).toEqual([...VALUES].sort());
  });

  it("exports exactly the pinned names, types included, and nothing through export *", () => {
    const file = path.join(import.meta.dirname, "index.ts");
    const source = ts.sys.readFile(file)!;
    expect(source).not.toMatch(/export \*/);
    const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true });
    const checker = program.getTypeChecker();
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const names = checker.getExportsOfModule(symbol).map((s) => s.getName()).sort();
    expect(names).toEqual([...VALUES, ...TYPES].sort());
  });
});
