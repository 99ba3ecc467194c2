import { performance } from "node:perf_hooks";
import type { Redactor } from "#src/cassette/redact.js";
import type { RecordingSink } from "#src/cassette/recording-sink.js";
import type { RecordFaults } from "./record-faults.js";

/** Milliseconds since the recording started (the `t_ms` of events). */
export type RecordingClock = () => number;

export function startClock(): RecordingClock {
  const t0 = performance.now();
  return () => performance.now() - t0;
}

/** What every recording backend writes through: the cassette, the redactor, the clock. */
export interface RecordingParts {
  sink: RecordingSink;
  redactor: Redactor;
  clock: RecordingClock;
  /** `record --faults`: the plan's faults are injected into the harness's calls. */
  faults?: RecordFaults;
}

/** An event time in ms, rounded to the microsecond and never negative. */
export const eventTime = (ms: number): number => Math.max(0, Math.round(ms * 1000) / 1000);
