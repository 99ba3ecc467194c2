// The types of a recorded exchange, the memo its preparation shares and the outcome it records, in
// one module: they refer to each other (a memo is keyed by exchanges, an exchange carries its memo).
import type { RecordedFault, RecordedSynthesis } from "#src/schema/cassette.js";
import type { StoredBytes } from "#src/schema/bytes.js";
import type { RequestEntry, ToolKind } from "#src/schema/replay-log.js";
import type { Lru } from "#src/util/lru.js";
import type { RecordedTransport } from "#src/cassette/exchanges/index.js";
import type { ReplayRequest } from "./request.js";

/** One recorded request and the driver's answer to it, on whichever transport it was recorded. */
export interface RecordedExchange {
  /** seq of the request's event. */
  seq: number;
  transport: RecordedTransport;
  request: ReplayRequest;
  kind: ToolKind;
  /** Epoch the request was recorded in (set by assignEpochs). */
  epoch: number;
  origin: "harness" | "recorder";
  durationMs: number;
  cli?: {
    stdout: StoredBytes;
    stderr: StoredBytes;
    exitCode: number | null;
    signal?: string;
    /** Frame refs of files the driver wrote, by flag. */
    files?: Record<string, { ref: string; path: string }>;
  };
  /** MCP over stdio or HTTP: the response line/body exactly as sent (undefined: no response). */
  rpc?: { response?: string; status?: number; contentType?: string; stream?: number };
  /** Built by the replay, not recorded (an answer off the recorded path): it has no seq of its own. */
  virtual?: true;
  /**
   * A fault injected into this request while recording (`record --faults`). Forwarded: the answer
   * above is the driver's and the harness got the fault instead. Not forwarded: the driver never
   * saw the request, the answer (if any) is the fault the harness got, and the desktop did not change.
   */
  fault?: RecordedFault;
  /** The recorded answer was built by the recording's stand-in, not the driver (its line's `synthesized`): the replay logs it so. */
  recordedSynthesis?: RecordedSynthesis;
  /** The memo shared by the exchanges of one preparation (what is worked out from answers, kept once). */
  memo?: ReplayMemo;
  /**
   * The recorded answer says the driver did not act (outcome class `refused`: a refusal envelope, a
   * tool it does not classify, a failed exit that is no timeout): the desktop did not change.
   */
  refused?: true;
  /** Per-call CLI: the call's place in the order the recording's calls started (`start_seq`), when recorded. */
  startSeq?: number;
  /** Per-call CLI: when the call started (`t_ms`). */
  startMs?: number;
}

/** What a recorded exchange says about the tool result, in transport-neutral form. */
export type RecordedOutcome =
  /** The exact result object (MCP/HTTP), or one rebuilt from CLI stdout (`derived: true`). */
  | { type: "result"; raw: string; derived: boolean }
  /** A JSON-RPC error (MCP/HTTP): code and message. */
  | { type: "rpc_error"; code: number; message: string }
  /** A failed CLI invocation: non-zero exit with this stderr. */
  | { type: "cli_failure"; exitCode: number | null; stderr: string; signal?: string }
  /** No answer was recorded (the recording ended mid-call). */
  | { type: "none" };

/**
 * What replays work out again and again from the same recording, kept once per preparation (its
 * exchanges share one memo; every engine and fuzz run over that preparation reuses it), within a
 * budget: an outcome keeps its answer alive, a summary is keyed by the served result.
 */
export interface ReplayMemo {
  outcomes: Lru<RecordedExchange, RecordedOutcome>;
  summaries: Lru<string, NonNullable<RequestEntry["result"]>>;
}
