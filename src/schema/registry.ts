import type { z } from "zod";
import { CassetteEventSchema, CassetteHeaderSchema } from "./cassette.js";
import { ReplayLogEntrySchema } from "./replay-log.js";
import { ScenarioSchema } from "./scenario.js";
import { CheckResultSchema } from "./check-result.js";
import { HarnessActionSchema, StepResultSchema } from "./harness-step.js";
import { ProbeSnapshotSchema } from "./probe-snapshot.js";
import { DriverContractSchema } from "./driver-contract.js";
import { ExpectedFailuresSchema } from "./gate-baseline.js";
import { GateHistoryEntrySchema } from "./gate-history.js";
import { GateVerdictSchema } from "./gate-verdict.js";
import { FaultPlanSchema } from "./fault-plan.js";
import { FrameSignatureSchema } from "./frame-signature.js";
import { TrajectoryActionSchema, TrajectoryEvidenceSchema, TrajectoryStateSchema } from "./trajectory.js";

/**
 * Every persisted or wire schema, by the file name its JSON Schema gets in contracts/schema/.
 * `npm run schemas` regenerates those files; a test fails when one is stale.
 */
export const schemaRegistry: Record<string, z.ZodType> = {
  "cassette-header": CassetteHeaderSchema,
  "cassette-event": CassetteEventSchema,
  "replay-log-entry": ReplayLogEntrySchema,
  scenario: ScenarioSchema,
  "check-result": CheckResultSchema,
  "harness-action": HarnessActionSchema,
  "harness-step-result": StepResultSchema,
  "probe-snapshot": ProbeSnapshotSchema,
  "driver-contract": DriverContractSchema,
  "expected-failures": ExpectedFailuresSchema,
  "gate-history": GateHistoryEntrySchema,
  "gate-verdict": GateVerdictSchema,
  "fault-plan": FaultPlanSchema,
  "frame-signature": FrameSignatureSchema,
  "trajectory-action": TrajectoryActionSchema,
  "trajectory-state": TrajectoryStateSchema,
  "trajectory-evidence": TrajectoryEvidenceSchema,
};
