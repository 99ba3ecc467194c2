import { z } from "zod";
import { FaultKindSchema } from "./fault-plan.js";

/**
 * The replay log: one JSON object per line, written by every replay transport (CLI shim, MCP,
 * HTTP, in-process). Invariants, reports and the fuzzer read only this, so they work for a
 * harness in any language.
 */

export const ToolKindSchema = z.enum(["read", "mutation", "other"]);
export type ToolKind = z.infer<typeof ToolKindSchema>;

export const ReplayTransportSchema = z.enum(["cli", "mcp", "http", "inprocess"]);
export type ReplayTransport = z.infer<typeof ReplayTransportSchema>;

export { FaultKindSchema, type FaultKind } from "./fault-plan.js";

export const AppliedFaultSchema = z
  .object({
    kind: FaultKindSchema,
    /** Index of the rule in the fault plan that fired. */
    rule: z.number().int().nonnegative(),
    /** The rule's parameters (code, ms, stderr, …). */
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type AppliedFault = z.infer<typeof AppliedFaultSchema>;

/** What the harness was served, summarised for judging (not the bytes). */
export const ServedResultSchema = z
  .object({
    isError: z.boolean().optional(),
    /** refusal code from any refusal envelope shape (refusal.code, code). */
    refusal_code: z.string().optional(),
    /** ActionResult effect, when the result has one. */
    effect: z.string().optional(),
    exit_code: z.number().int().nullable().optional(),
    /** list_windows served with no windows (recorded or injected). */
    empty: z.boolean().optional(),
    /** Window ids seen in an observation result (list_windows, get_window_state). */
    window_ids: z.array(z.number()).optional(),
  })
  .strict();
export type ServedResult = z.infer<typeof ServedResultSchema>;

/**
 * Answers the replay builds without a recorded exchange: by the driver's rules (`session_ended`,
 * `permission_denied`) or from what is known about the recorded driver (the rest).
 * Off the recorded path (docs/matching.md): `lifecycle` (a session start or end built for this
 * label and state), `stale_element_token` (a token the driver no longer honours in this state),
 * `resent_mutation` (a mutation sent again after it was answered: its recorded answer again, nothing
 * consumed), `skipped_ahead` (a later recorded mutation, after ones that did not take effect or were
 * not sent after a fault), `same_element` (the expected mutation aimed at the same element through a
 * token from a newer look), `fresh_look` (a look the replay served already, read again: the recorded
 * look with a new snapshot id and new element tokens, as the driver makes a new snapshot on every read),
 * `unchanged_screen` (a read after a `no_effect` fault: the look recorded before the mutation that
 * changed nothing), `discover` and `ping` (a cua-driver ≥ 0.28 server's `server/discover` and `ping`,
 * built from the driver's source: docs/eras.md), `skill_pack` (its skills/resources answers, from
 * the reference skill pack, whose commits the basis names), `protocol_error` (a JSON-RPC error the
 * driver's dispatcher returns by rule before any tool runs: a line that is not JSON-RPC, an unknown
 * method, a call without params or tool name; only a recording's stand-in marks these, the replay
 * answers them by the same rule without logging them). A recorded answer the recording's stand-in
 * built itself (the cassette's `synthesized` on its line, docs/cassettes.md) is logged with the
 * kind and basis recorded there.
 */
export const SynthesizedKindSchema = z.enum([
  "session_ended",
  "permission_denied",
  "version",
  "help",
  "list_tools",
  "describe",
  "check_update",
  "mcp_config",
  "initialize",
  "tools_list",
  "lifecycle",
  "stale_element_token",
  "resent_mutation",
  "skipped_ahead",
  "same_element",
  "fresh_look",
  "unchanged_screen",
  "discover",
  "ping",
  "skill_pack",
  "era_refusal",
  "protocol_error",
]);
export type SynthesizedKind = z.infer<typeof SynthesizedKindSchema>;

/** Where a synthesized answer came from. */
export const SynthesisBasisSchema = z
  .object({
    /** `header`: the cassette header; `cassette`: another recorded exchange; `probe`: probe.json; `reference`: the driver's source (docs/discoveries). */
    source: z.enum(["header", "cassette", "probe", "reference"]),
    /** seq of the recorded exchange it was built from (source `cassette`). */
    seq: z.number().int().nonnegative().optional(),
    /** What was taken from the source, or what the reference says (e.g. `offline: api.github.com unreachable`). */
    detail: z.string().optional(),
  })
  .strict();
export type SynthesisBasis = z.infer<typeof SynthesisBasisSchema>;

export interface SynthesizedAnswer {
  kind: SynthesizedKind;
  basis: SynthesisBasis;
}

export const RequestEntrySchema = z
  .object({
    type: z.literal("request"),
    /** 0-based index of the request in this replay run. */
    n: z.number().int().nonnegative(),
    t_ms: z.number().nonnegative(),
    transport: ReplayTransportSchema,
    /** MCP process / HTTP connection / in-process session number; absent for per-call CLI. */
    stream: z.number().int().nonnegative().optional(),
    /** CLI subcommand (`call`, `--version`, `manifest`, …) or MCP method (`tools/call`, …). */
    method: z.string(),
    /**
     * MCP stdio to a driver of 0.28 or later: the era the request spoke (`modern` when it carried
     * the 2026-07-28 metadata or was `server/discover`, docs/eras.md). Absent where there are no eras.
     */
    era: z.enum(["legacy", "modern"]).optional(),
    tool: z.string().optional(),
    /** Arguments as received (after redaction), for evidence and matching. */
    args: z.unknown().optional(),
    kind: ToolKindSchema,
    epoch_before: z.number().int().nonnegative(),
    epoch_after: z.number().int().nonnegative(),
    /**
     * `unanswered`: the request was read but the driver would not answer it (an MCP stream stuck on
     * an earlier call that never returned); it is logged so every invariant sees the whole conversation.
     */
    outcome: z.enum(["replayed", "faulted", "unmatched", "unanswered"]),
    /** seq of the cassette event that answered it. */
    matched_seq: z.number().int().nonnegative().optional(),
    /** A read answered from this earlier epoch because the current one recorded no such read. */
    fallback_epoch: z.number().int().nonnegative().optional(),
    /** A session-lifecycle call answered from this epoch, out of the recorded order: nothing consumed, the epoch stays. */
    lifecycle_epoch: z.number().int().nonnegative().optional(),
    /** The answer was not the recorded answer to this request at this point: built by the replay by a rule, from a recorded answer elsewhere or from the driver reference. */
    synthesized: SynthesizedKindSchema.optional(),
    /** Where a synthesized answer came from. */
    basis: SynthesisBasisSchema.optional(),
    fault: AppliedFaultSchema.optional(),
    result: ServedResultSchema.optional(),
    unmatched: z
      .object({
        reason: z.string(),
        nearest_seq: z.number().int().optional(),
        /** The first differing argument path. */
        path: z.string().optional(),
        /** The complete `--ignore` set that makes the request match the nearest recorded one. */
        ignore: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    duration_ms: z.number().nonnegative().optional(),
  })
  .strict();
/** A replay log line for one request: what matched, the fault applied and what was served. */
export type RequestEntry = z.infer<typeof RequestEntrySchema>;

/** An MCP process or HTTP connection opening or closing (a new process is a session rebuild). */
export const StreamEntrySchema = z
  .object({
    type: z.literal("stream"),
    event: z.enum(["open", "close"]),
    t_ms: z.number().nonnegative(),
    transport: ReplayTransportSchema,
    stream: z.number().int().nonnegative(),
  })
  .strict();
export type StreamEntry = z.infer<typeof StreamEntrySchema>;

/** A harness-side marker (in-process harnesses only), e.g. a batch boundary. */
export const MarkEntrySchema = z
  .object({
    type: z.literal("mark"),
    t_ms: z.number().nonnegative(),
    label: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type MarkEntry = z.infer<typeof MarkEntrySchema>;

/**
 * A look at the world the harness took by its own means (its game state, its own screenshot, a
 * person's check) and declared to the replay: a line appended to the file `CUA_CONTRACT_OBSERVE`
 * names, or `observe()` in process. The invariants count it as a fresh observation.
 */
export const ObservationEntrySchema = z
  .object({
    type: z.literal("observation"),
    t_ms: z.number().nonnegative(),
    /** `n` of the first request sent after it: it happened before that request and after every earlier one. */
    before: z.number().int().nonnegative(),
    /** `declared`: the harness said so (the only source today). */
    source: z.literal("declared"),
    /** What the harness said it looked at (the declared line, at most 500 characters). */
    note: z.string().optional(),
  })
  .strict();
export type ObservationEntry = z.infer<typeof ObservationEntrySchema>;

export const SummaryEntrySchema = z
  .object({
    type: z.literal("summary"),
    t_ms: z.number().nonnegative(),
    served: z.number().int().nonnegative(),
    unmatched: z.number().int().nonnegative(),
    faults: z.number().int().nonnegative(),
    /** Requests answered with a synthesized answer (each logged with its basis). */
    synthesized: z.number().int().nonnegative().optional(),
    /** Requests read but never answered (an MCP stream stuck on an earlier call). */
    unanswered: z.number().int().nonnegative().optional(),
    unused: z.array(z.object({ seq: z.number().int(), tool: z.string().optional(), kind: ToolKindSchema }).strict()),
  })
  .strict();
/** The replay log's closing line: served, unmatched, faults, and the recorded calls never used. */
export type SummaryEntry = z.infer<typeof SummaryEntrySchema>;

/** One line of a replay log: a request served (or not) and how, or the closing summary. */
export const ReplayLogEntrySchema = z.discriminatedUnion("type", [
  RequestEntrySchema,
  StreamEntrySchema,
  MarkEntrySchema,
  ObservationEntrySchema,
  SummaryEntrySchema,
]);
/** A replay log line as `ReplayLogEntrySchema` parses it. */
export type ReplayLogEntry = z.infer<typeof ReplayLogEntrySchema>;
