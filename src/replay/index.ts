// The replay part's public surface (`cua-contract/replay`).
export {
  createReplayer,
  prepareReplayCassette,
  type Replayer,
  type ReplayerOptions,
  type ReplayCassette,
  type PreparedReplayCassette,
  type ReplaySummary,
} from "./replayer.js";
export { createVirtualClock, type VirtualClock } from "#src/driver/clock-virtual.js";
export { createEngine, type Engine, type EngineOptions, type Decision, summariseResult } from "./engine/engine.js";
export type { MatchMode } from "./engine/matcher.js";
export { parseFaultPlan, validateFaultPlan } from "#src/faults/parse-plan.js";
export { FaultPlanSchema, type FaultPlan, type Fault, type FaultRule, type FaultMatch } from "#src/schema/fault-plan.js";
export { loadReplayCassette } from "./load.js";
export { createReplaySession, type ReplaySession, type ReplaySessionOptions } from "./session.js";
export { createReplayBackend } from "#src/transports/cli/replay-backend.js";
export { systemClock } from "#src/runtime/clock-system.js";
export { recordedDelayMs, type ReplaySpeed } from "./recorded-timing.js";
export { replay, type ReplayRunOptions, type ReplayRunSummary, readFaultPlan } from "#src/transports/run-replay.js";
