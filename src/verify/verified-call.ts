import type { Severity } from "#src/contract/change.js";
import type { RecordedTransport } from "#src/cassette/exchanges/index.js";
import type { AnswerDifference } from "./answer-diff.js";

/** One recorded request sent (or not) to the candidate, and how its answer compares. */
export interface VerifiedCall {
  /** The recorded request's event. */
  seq: number;
  line: number;
  transport: RecordedTransport;
  /** `call click`, `--version`, `tools/call click`, `initialize`. */
  label: string;
  tool?: string;
  /** Whether the request was sent (a mutation is not sent without a fresh desktop). */
  sent: boolean;
  readOnly: boolean;
  /** What makes this call's re-run less than exact, said per call. */
  notes: string[];
  differences: AnswerDifference[];
  worst?: Severity | undefined;
}

/** Where the recorded flow and the live one parted: the first sent call with a breaking or behavioural difference. */
export interface Divergence {
  seq: number;
  label: string;
}

export function divergenceNote(d: Divergence): string {
  return `after event ${d.seq} (${d.label}) answered differently, the desktop may no longer be in the recording's state: this answer may follow from that`;
}
