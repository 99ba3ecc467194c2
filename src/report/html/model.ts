/**
 * What an HTML report shows, independent of where it came from (a cassette, a replay log or a
 * check result). Built by the `*-rows` / `*-sections` modules, compared by `compareShots`, turned
 * into HTML by `renderReport`. Images are referenced by id; the shell supplies their bytes.
 */

/** `screenChange` kinds: same bytes; perceptually the same (under 2 % of cells changed); changed. */
export type ScreenChangeKind = "identical" | "similar" | "changed";

export type RowKind = "read" | "mutation" | "other";

/** Where a screenshot came from, so the shell can load it. */
export interface FrameSource {
  /** Cassette directory holding `frames/`. */
  cassetteDir: string;
  /** `frames/<sha256>.<png|jpg>`. */
  ref: string;
}

export interface ReportShot {
  /** Stable id of the image (the frame's sha256 prefix). */
  image: string;
  source: FrameSource;
  /** `screenshot` (in the result) or the CLI flag the file was written for. */
  label: string;
  /** Filled by compareShots: how this screenshot differs from the one before it in the timeline. */
  change?: {
    kind: ScreenChangeKind;
    /** Row id and image id of the previous screenshot. */
    previousRow: string;
    previousImage: string;
    /** Fraction of the 32×18 signature cells that differ. */
    fraction?: number;
    /** Why the pair shows no difference view (e.g. a frame that does not decode). */
    note?: string;
    /** For `identical`: the row where this image is actually shown (the start of the run of identical shots). */
    shownIn?: string;
  };
}

export interface ReportVerdict {
  decision: string;
  outcome?: string;
  note: string;
}

export interface ReportRow {
  /** HTML id, unique in the document (e.g. `s0-call-12`). */
  id: string;
  /** What people call it: `#12` (replay log request n) or `seq 12` (cassette event). */
  label: string;
  t_ms?: number | undefined;
  /** `call` for tool calls, else the CLI subcommand or MCP method. */
  method: string;
  tool?: string | undefined;
  /** Arguments as pretty JSON (already redacted in the cassette). */
  args?: string | undefined;
  kind: RowKind;
  /** One line: effect, refusal code, error text, or what an observation returned. */
  result: string;
  /** The whole result (images replaced by a marker), for a collapsed details block. */
  resultDetail?: string | undefined;
  isError?: boolean | undefined;
  verdict?: ReportVerdict | undefined;
  /** `replayed | faulted | unmatched` for replay logs; `recorded` for cassettes. */
  outcome: "replayed" | "faulted" | "unmatched" | "unanswered" | "recorded";
  fault?: string | undefined;
  epochBefore?: number | undefined;
  epochAfter?: number | undefined;
  shots: ReportShot[];
  /** Set when a problem links here. */
  flagged?: boolean | undefined;
}

export interface ReportLink {
  row: string;
  label: string;
}

export interface ReportProblem {
  /** `invariant`, `expectation`, `unmatched`, `exit_code`, `error`. */
  kind: string;
  /** e.g. the invariant id. */
  title: string;
  message: string;
  links: ReportLink[];
}

export interface ReportSection {
  id: string;
  title: string;
  /** Pass / fail badge; absent when nothing was judged (a plain cassette). */
  passed?: boolean;
  facts: Array<[string, string]>;
  problems: ReportProblem[];
  rows: ReportRow[];
  /** The harness's own steps (in-process check runs), shown before the requests they made. */
  steps?: ReportRow[];
  /**
   * A timeline built a page at a time as the input was read (a long cassette; `rows` is then
   * empty): its call count and each page's markup (`timelinePage`).
   */
  timeline?: { count: number; pages: string[] };
}

export interface ReportModel {
  title: string;
  input: { kind: "cassette" | "replay-log" | "check-result"; file: string };
  facts: Array<[string, string]>;
  notes: string[];
  sections: ReportSection[];
}
