import type { CassetteEvent, CassetteHeader, HttpEvent, McpLineEvent } from "#src/schema/cassette.js";
import { countedAs, createExchangeReader, exitOf, storedText, transportOf } from "./exchanges/index.js";
import type { Cassette, FrameStats } from "./cassette.js";

/** What `inspect --json` prints. Field names are a public contract: add, never rename. */
export interface CassetteSummary {
  dir: string;
  header: CassetteHeader;
  events: number;
  by_kind: Record<string, number>;
  by_origin: Record<string, number>;
  by_transport: Record<string, number>;
  /** Tool calls by tool name (CLI `call`, MCP `tools/call`); other subcommands by `<subcommand>`. */
  by_tool: Record<string, number>;
  /** CLI exit codes and MCP stream exit codes ("signal:SIGTERM" when killed). */
  by_exit_code: Record<string, number>;
  mcp_streams: number;
  frames: FrameStats;
  probe: ProbeFacts;
  warnings: string[];
}

/**
 * probe.json against the header: `matches` (its sha256 is `driver.probe_sha256`), `mismatched`
 * (altered since recording), `missing` (the header names one, the file is gone), `unpinned` (a file
 * the header does not name), `absent` (neither).
 */
export interface ProbeFacts {
  present: boolean;
  status: "matches" | "mismatched" | "missing" | "unpinned" | "absent";
  sha256?: string;
  header_sha256?: string;
}

const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};

/** What a cassette holds: its transport, driver, calls per tool, frames and faults. */
export function summarizeCassette(cassette: Cassette): CassetteSummary {
  const counter = countEvents();
  for (const e of cassette.events) counter.add(e);
  return counter.summary({
    dir: cassette.dir,
    header: cassette.header,
    frameStats: cassette.frameStats,
    warnings: cassette.warnings,
    ...(cassette.probeSha256 !== undefined ? { probeSha256: cassette.probeSha256 } : {}),
  });
}

type EventCounts = Pick<CassetteSummary, "events" | "by_kind" | "by_origin" | "by_transport" | "by_tool" | "by_exit_code" | "mcp_streams">;

/** The summary's counts, one event at a time (so a cassette need not be held in memory to be summarized). */
export function countEvents(): {
  add(e: CassetteEvent): void;
  summary(facts: { dir: string; header: CassetteHeader; frameStats: FrameStats; warnings: string[]; probeSha256?: string }): CassetteSummary;
} {
  const s: EventCounts = { events: 0, by_kind: {}, by_origin: {}, by_transport: {}, by_tool: {}, by_exit_code: {}, mcp_streams: 0 };
  const reader = createExchangeReader(
    {
      request(x) {
        const tool = countedAs(x);
        if (tool) bump(s.by_tool, tool);
        const exit = exitOf(x);
        if (exit !== undefined) bump(s.by_exit_code, exit);
      },
      stream(e) {
        if (e.kind === "mcp_open") s.mcp_streams++;
        if (e.kind === "mcp_close") bump(s.by_exit_code, e.signal ? `signal:${e.signal}` : String(e.exit_code));
      },
    },
    { text: summaryText, answers: false },
  );
  return {
    add(e) {
      s.events++;
      bump(s.by_kind, e.kind);
      bump(s.by_origin, e.origin ?? "harness");
      bump(s.by_transport, transportOf(e));
      reader.add(e, undefined);
    },
    summary(facts) {
      return {
        dir: facts.dir,
        header: facts.header,
        events: s.events,
        by_kind: s.by_kind,
        by_origin: s.by_origin,
        by_transport: s.by_transport,
        by_tool: s.by_tool,
        by_exit_code: s.by_exit_code,
        mcp_streams: s.mcp_streams,
        frames: facts.frameStats,
        probe: probeFacts(facts.probeSha256, facts.header),
        warnings: facts.warnings,
      };
    },
  };
}

/** An MCP line decoded; an HTTP body only when stored as text (one stored as base64 is not read for its tool). */
function summaryText(event: McpLineEvent | HttpEvent, field: "line" | "request.body"): string {
  if (field === "line") return storedText(event, field);
  const body = (event as HttpEvent).request.body;
  return typeof body === "string" ? body : "";
}

function probeFacts(actual: string | undefined, header: CassetteHeader): ProbeFacts {
  const pinned = header.driver.probe_sha256;
  const status =
    actual === undefined ? (pinned === undefined ? "absent" : "missing") : pinned === undefined ? "unpinned" : actual === pinned ? "matches" : "mismatched";
  const facts: ProbeFacts = { present: actual !== undefined, status };
  if (actual !== undefined) facts.sha256 = actual;
  if (pinned !== undefined) facts.header_sha256 = pinned;
  return facts;
}
