import type { z } from "zod";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import type { InvariantIdSchema } from "#src/schema/scenario.js";

/** Stable ids of the bundled invariants; they appear in scenario files, CLI flags and reports. */
export type InvariantId = z.infer<typeof InvariantIdSchema>;

/** What a violation points at: replay-log request numbers, the tools involved and the faults served. */
export interface Evidence {
  /** `n` of each request involved, in log order. */
  requests: number[];
  tools: string[];
  faults: string[];
}

/** A breach of an invariant, naming the requests, tools and faults it rests on. */
export interface Violation {
  invariant: InvariantId;
  /** One sentence a person can act on, quoting the requests by `#n`. */
  message: string;
  evidence: Evidence;
}

/** What the invariants need beside the replay log: the driver's tools and the limits some of them apply. */
export interface InvariantOptions {
  /**
   * Tool names the driver offers: from the cassette's probe, else its recorded tool lists, else the
   * catalogue's list for its driver version (`knownToolsOf`, docs/decisions/0280). Default: the
   * reference version's (cua-driver 0.21.0 on Linux).
   */
  knownTools?: readonly string[];
  /** Where `knownTools` came from, as a violation names it (e.g. `the cassette's probe`); default `the given tool list`. */
  knownToolsSource?: string;
  /** Maximum identical consecutive calls whose answers show no progress, for `bounded-retries` (default 6). */
  maxRepeats?: number;
  /**
   * Opt-in policy for `bounded-retries`: at most this many identical consecutive calls whatever the
   * driver answered (a harness's own fuse against a model stuck in a loop). Off by default.
   */
  maxIdentical?: number;
  /** Extra refusal codes that mean "the frame or element you acted on is stale". */
  staleCodes?: readonly string[];
}

export interface Invariant {
  id: InvariantId;
  /** One line: what must hold. */
  statement: string;
  check(entries: readonly ReplayLogEntry[], options: InvariantOptions): Violation[];
}

/** One invariant's verdict over a replay log, with its statement and violations. */
export interface InvariantResult {
  id: InvariantId;
  statement: string;
  passed: boolean;
  violations: Violation[];
}

/** The verdict of every invariant over one replay log: passed or not, and the violations. */
export interface InvariantReport {
  passed: boolean;
  /** Requests judged (entries of type `request`). */
  requests: number;
  results: InvariantResult[];
}
