// `cua-contract/replay`: cassettes (read, write, redact, restore) and replaying them: the
// in-process replayer, the engine, sessions and fault plans.

// cassettes
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
} from "#src/cassette/index.js";
export { CASSETTE_FORMAT, CASSETTE_VERSION, CassetteHeaderSchema, CassetteEventSchema, type CassetteHeader, type CassetteEvent } from "#src/schema/cassette.js";
export { ReplayLogEntrySchema, type ReplayLogEntry, type RequestEntry, type SummaryEntry } from "#src/schema/replay-log.js";

// replaying them
export {
  createReplayer,
  prepareReplayCassette,
  type Replayer,
  type ReplayerOptions,
  type ReplayCassette,
  type PreparedReplayCassette,
  type ReplaySummary,
} from "#src/replay/replayer.js";
export { loadReplayCassette } from "#src/replay/load.js";
export { createEngine, summariseResult, type Engine, type EngineOptions, type Decision } from "#src/replay/engine/engine.js";
export type { MatchMode } from "#src/replay/engine/matcher.js";
export { createReplaySession, type ReplaySession, type ReplaySessionOptions } from "#src/replay/session.js";
export { createReplayBackend } from "#src/transports/cli/replay-backend.js";
export { recordedDelayMs, type ReplaySpeed } from "#src/replay/recorded-timing.js";
export { replay, readFaultPlan, type ReplayRunOptions, type ReplayRunSummary } from "#src/transports/run-replay.js";

// fault plans
export { parseFaultPlan, validateFaultPlan } from "#src/faults/parse-plan.js";
export { FaultPlanSchema, type FaultPlan, type Fault, type FaultRule, type FaultMatch } from "#src/schema/fault-plan.js";
