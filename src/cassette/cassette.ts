import type { CassetteEvent, CassetteHeader } from "#src/schema/cassette.js";

export const CASSETTE_FILE = "cassette.jsonl";
export const FRAMES_DIR = "frames";
export const PROBE_FILE = "probe.json";

export interface FrameStats {
  /** Distinct frames referenced by events. */
  count: number;
  /** Total bytes of the referenced frames found on disk. */
  bytes: number;
  /** Refs whose file is absent. */
  missing: string[];
  /** Refs whose file's sha256 is not the one in its name. */
  mismatched: string[];
}

/** A cassette loaded and validated: header, events in file order, frame facts and warnings. */
export interface Cassette {
  dir: string;
  /** `<dir>/cassette.jsonl`, as named in messages. */
  file: string;
  header: CassetteHeader;
  events: CassetteEvent[];
  /** 1-based line of each event in `file` (same order as `events`). */
  lines: number[];
  warnings: string[];
  probe?: unknown;
  /** sha256 of probe.json's bytes, when there is one (the header's `driver.probe_sha256` should match). */
  probeSha256?: string;
  frameStats: FrameStats;
}

/** The stored-bytes fields of an event that can carry frames, by event kind. */
export const BYTES_FIELDS: Record<CassetteEvent["kind"], readonly string[]> = {
  cli: ["stdout", "stderr", "stdin"],
  mcp_open: [],
  mcp: ["line"],
  mcp_stderr: ["data"],
  mcp_close: [],
  http: ["request.body", "response.body"],
};
