// What a test gets from `useCassette`, and what it passes to it.
import type { Clock, Driver } from "#src/driver/port.js";
import type { MatchMode } from "#src/replay/engine/matcher.js";
import type { ReplaySpeed } from "#src/replay/recorded-timing.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry, SummaryEntry } from "#src/schema/replay-log.js";
import type { HarnessRun } from "./harness-run.js";
import type { CassetteMode } from "./mode.js";
import type { RecordMissingSummary } from "#src/recorder/record-missing/record-missing.js";
import type { KnownTools } from "#src/replay/engine/known-tools.js";

/** How a test's cassette is used: the mode, faults, matching, clock and the driver to record with. */
export interface UseCassetteOptions {
  /** Default: `CUA_CONTRACT_MODE`, else `replay`. */
  mode?: CassetteMode;
  faults?: FaultPlan;
  seed?: number;
  match?: MatchMode;
  ignore?: readonly string[];
  speed?: ReplaySpeed;
  /** Clock of the in-process replayer (default virtual: delays and hangs take no real time). */
  clock?: Clock;
  /** record/record-missing/passthrough: `sdk[:VERSION]` (default `CUA_CONTRACT_DRIVER`, else `sdk`) or a cua-driver path. */
  driver?: string;
  /** record/record-missing/passthrough: start a throwaway X desktop (default: `CUA_CONTRACT_DESKTOP=1`). */
  desktop?: boolean;
  /** record-missing: provenance of an executable `driver` for the added calls, a real binary (default) or a test double. */
  driverSource?: "binary" | "synthetic";
  /** record-missing: run even when CI=true (default: `CUA_CONTRACT_ALLOW_IN_CI=1`). */
  allowInCi?: boolean;
  /** Environment to read the defaults from (default process.env). */
  env?: Record<string, string | undefined>;
}

/** A cassette opened for one test: a Driver for an in-process harness, and a runner for a harness process. */
export interface CassetteHandle extends AsyncDisposable {
  readonly dir: string;
  readonly mode: CassetteMode;
  /** For an in-process harness: the replayer, or (record/passthrough) the live driver through the recording shim. */
  readonly driver: Driver;
  /** For a harness process you start yourself: PATH with the `cua-driver` shim first, and CUA_DRIVER. */
  env(): Promise<Record<string, string>>;
  /** Runs a harness process (argv) with that environment and captures its output. */
  run(command: readonly string[], options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<HarnessRun>;
  /**
   * Declare a look the harness took by its own means (replay mode): the invariants count it as a
   * fresh observation. A harness process declares one by appending a line to the file named by
   * `CUA_CONTRACT_OBSERVE` in `env()`. Does nothing in record and passthrough modes.
   */
  observe(note?: string): void;
  /** The replay log so far (empty in record and passthrough modes: nothing was replayed). */
  log(): ReplayLogEntry[];
  /** Replay mode: the tools the recording's driver offers, which `toPassInvariants` judges calls by (decision 0280). */
  readonly knownTools?: KnownTools | undefined;
  /** Served, unmatched, faults and the recorded calls never used (replay mode). */
  summary(): Omit<SummaryEntry, "type" | "t_ms">;
  /** record-missing: what the run served, added and paired, once the handle is closed. */
  readonly grown?: RecordMissingSummary | undefined;
  /** Writes the log as JSONL with a closing summary, as `replay --log` does (input for `cassette prune --log`). */
  writeLog(file: string): void;
  close(): Promise<void>;
}
