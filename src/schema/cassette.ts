import { z } from "zod";
import { FrameRefSchema, FrameSpliceSchema, StoredBytesSchema } from "./bytes.js";
import { FaultPlanSchema } from "./fault-plan.js";
import { FaultKindSchema, SynthesisBasisSchema, SynthesizedKindSchema } from "./replay-log.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION } from "./cassette-format.js";

export { CASSETTE_FORMAT, CASSETTE_VERSION };

export const DriverSourceSchema = z.enum(["binary", "sdk", "synthetic"]);
export type DriverSource = z.infer<typeof DriverSourceSchema>;

export const CassetteTransportSchema = z.enum(["cli", "mcp", "http", "mixed"]);
export type CassetteTransport = z.infer<typeof CassetteTransportSchema>;

/** One run of `replay --record-missing` that added events: when, from which live driver, how many, and what it left out. */
/** An ISO 8601 date-time as the recorder writes it (`2026-05-01T12:00:00.000Z`); anything else is refused. */
export const IsoDateTimeSchema = z
  .string()
  .regex(
    /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/,
    "not an ISO 8601 date-time (e.g. 2026-05-01T12:00:00.000Z)",
  );

export const CassetteAdditionSchema = z
  .object({
    by: z.literal("record-missing"),
    at: IsoDateTimeSchema,
    driver: z.object({ version: z.string().nullable(), platform: z.string(), source: DriverSourceSchema, location: z.string().optional() }).strict(),
    /** Events added. */
    events: z.number().int().nonnegative(),
    /** Recorded events left out: another history than the run's, after a mutation the recording did not make (docs/replay.md). */
    dropped: z.number().int().nonnegative(),
    /** The cassette.jsonl from before the run, kept beside it when events were left out. */
    backup: z.string().optional(),
  })
  .strict();
export type CassetteAddition = z.infer<typeof CassetteAdditionSchema>;

/** A cassette's first line: format, version, transport, driver and recorder. */
export const CassetteHeaderSchema = z
  .object({
    format: z.literal(CASSETTE_FORMAT),
    version: z.literal(CASSETTE_VERSION),
    transport: CassetteTransportSchema,
    driver: z
      .object({
        /** Parsed version, e.g. "0.21.0"; null when it could not be learned. */
        version: z.string().nullable(),
        platform: z.string(),
        source: DriverSourceSchema,
        /** Exact `cua-driver --version` output, when captured. */
        version_output: z.string().optional(),
        /** sha256 of the exact `cua-driver manifest` output, when captured. */
        manifest_sha256: z.string().optional(),
        /** sha256 of probe.json beside the cassette, when there is one. */
        probe_sha256: z.string().optional(),
        /** Where the driver came from: a path, or `sdk:@trycua/cua-driver@0.21.0`. */
        location: z.string().optional(),
      })
      .passthrough(),
    recorded_at: IsoDateTimeSchema,
    recorder: z.object({ name: z.string(), version: z.string() }).passthrough(),
    redaction: z
      .object({ enabled: z.boolean(), patterns: z.array(z.string()).optional() })
      .strict()
      .optional(),
    /** Free-form facts about how the cassette was made (e.g. "read-only calls reconstructed"). */
    notes: z.array(z.string()).optional(),
    /** The fault plan (and seed) injected while recording (`record --faults`); the faulted events carry `fault`. */
    faults: z.object({ plan: FaultPlanSchema, seed: z.number().int().optional() }).strict().optional(),
    /** Calls added after the recording (`replay --record-missing`), one entry per run that added any; those events carry `added`. */
    additions: z.array(CassetteAdditionSchema).optional(),
  })
  .passthrough();
/** A cassette header as `CassetteHeaderSchema` parses it. */
export type CassetteHeader = z.infer<typeof CassetteHeaderSchema>;

/**
 * A fault injected while recording (`record --faults`) into the request this event carries.
 * `forwarded`: the request reached the driver (its real answer is recorded, the harness got the
 * fault instead); otherwise the driver never saw it, the recorded answer is what the harness got
 * (nothing, for a timeout) and the desktop did not change.
 */
export const RecordedFaultSchema = z
  .object({
    kind: FaultKindSchema,
    /** Index of the rule in the plan that fired. */
    rule: z.number().int().nonnegative(),
    /** The rule's parameters (code, ms, stderr, …). */
    params: z.record(z.string(), z.unknown()).optional(),
    forwarded: z.boolean(),
  })
  .strict();
export type RecordedFault = z.infer<typeof RecordedFaultSchema>;

/** The largest `seq` a cassette may hold: far past any recording, and room for merges and additions to count on. */
export const MAX_SEQ = 2 ** 48;

const EventBase = {
  seq: z.number().int().nonnegative().max(MAX_SEQ, `seq must be at most 2^48 (${MAX_SEQ})`),
  /** Milliseconds since the recording started. */
  t_ms: z.number().nonnegative(),
  /** Who caused the event: the harness under test, or the recorder itself (identity capture). */
  origin: z.enum(["harness", "recorder"]).optional(),
  /** Added after the recording by `replay --record-missing` (the header's `additions` says more): when, and the live driver's provenance. */
  added: z
    .object({ by: z.literal("record-missing"), at: IsoDateTimeSchema, source: DriverSourceSchema })
    .strict()
    .optional(),
};

/** One per-call CLI invocation of cua-driver. */
export const CliEventSchema = z
  .object({
    ...EventBase,
    kind: z.literal("cli"),
    duration_ms: z.number().nonnegative(),
    argv: z.array(z.string()),
    stdin: StoredBytesSchema.optional(),
    stdout: StoredBytesSchema,
    stderr: StoredBytesSchema,
    exit_code: z.number().int().nullable(),
    signal: z.string().optional(),
    /** Files the driver wrote, by flag (e.g. `--screenshot-out-file`), stored as frames. */
    files: z.record(z.string(), z.object({ ref: FrameRefSchema, path: z.string() }).strict()).optional(),
    /** Images cut out of stdout/stdin text and stored as frames. */
    frames: z.array(FrameSpliceSchema).optional(),
    /** A fault injected into this call while recording; stdout/stderr/exit are the driver's when forwarded, else what the harness got. */
    fault: RecordedFaultSchema.optional(),
    /**
     * The call's place in the order the recording's per-call calls started (0, 1, …). Events are
     * written when a call finishes, so calls that overlapped appear in the order they finished; the
     * replay matches them in this order. Absent in cassettes recorded before it was kept.
     */
    start_seq: z.number().int().nonnegative().optional(),
  })
  .strict();
export type CliEvent = z.infer<typeof CliEventSchema>;

/** A `cua-driver mcp` process started (each stream is one process). */
export const McpOpenEventSchema = z
  .object({ ...EventBase, kind: z.literal("mcp_open"), stream: z.number().int().nonnegative(), argv: z.array(z.string()) })
  .strict();

/**
 * On an `s2c` answer line: the recording's stand-in built this answer itself, the driver did not
 * (the SDK backend's `initialize`, `server/discover`, `ping`, skills and resources answers, its
 * refusals and the tool it hosts): what the answer stands for (a replay log `synthesized` kind)
 * and where it was read. The replay logs the answer as synthesized with this basis. Never on the
 * driver's own bytes (docs/cassettes.md, decision 0271).
 */
export const RecordedSynthesisSchema = z.object({ kind: SynthesizedKindSchema, basis: SynthesisBasisSchema }).strict();
export type RecordedSynthesis = z.infer<typeof RecordedSynthesisSchema>;

/**
 * What of an answer the recording's stand-in built around the driver's own bytes:
 * `modern_envelope` (the 2026-07-28 era's `resultType`, `_meta` server identity, `ttlMs`,
 * `cacheScope`), `host_tools` (the tools the binary registers itself, added to the runtime's
 * tools/list), `tool_error` (the binary's tool-error result around the runtime's failure text).
 */
export const WrappedPartSchema = z.enum(["modern_envelope", "host_tools", "tool_error"]);
export type WrappedPart = z.infer<typeof WrappedPartSchema>;

/**
 * On an `s2c` answer line: the driver's own result (the runtime's tools/list, a tool result or
 * failure) inside parts the recording's stand-in built around it, and where those were read. The
 * answer stays the driver's: the replay logs it as replayed (docs/cassettes.md, decision 0271).
 */
export const RecordedWrappingSchema = z.object({ parts: z.array(WrappedPartSchema).min(1), basis: SynthesisBasisSchema }).strict();
export type RecordedWrapping = z.infer<typeof RecordedWrappingSchema>;

/** Who built a recorded answer, when not (all of it) the driver: at most one of the two. */
export interface AnswerProvenance {
  synthesized?: RecordedSynthesis;
  wrapped?: RecordedWrapping;
}

/** One JSON-RPC line, exactly as sent, in one direction. */
export const McpLineEventSchema = z
  .object({
    ...EventBase,
    kind: z.literal("mcp"),
    stream: z.number().int().nonnegative(),
    dir: z.enum(["c2s", "s2c"]),
    line: StoredBytesSchema,
    frames: z.array(FrameSpliceSchema).optional(),
    /**
     * On a `c2s` request: a fault injected into it while recording. Its `s2c` answer (same id) is the
     * driver's when forwarded (the harness got the fault instead), else the fault line the harness got, or none.
     */
    fault: RecordedFaultSchema.optional(),
    /** On an `s2c` answer: the recording's stand-in built it, not the driver (its kind and basis). */
    synthesized: RecordedSynthesisSchema.optional(),
    /** On an `s2c` answer: the driver's own result inside parts the recording's stand-in built around it. */
    wrapped: RecordedWrappingSchema.optional(),
  })
  .strict();

export const McpStderrEventSchema = z
  .object({ ...EventBase, kind: z.literal("mcp_stderr"), stream: z.number().int().nonnegative(), data: StoredBytesSchema })
  .strict();

export const McpCloseEventSchema = z
  .object({
    ...EventBase,
    kind: z.literal("mcp_close"),
    stream: z.number().int().nonnegative(),
    exit_code: z.number().int().nullable(),
    signal: z.string().optional(),
  })
  .strict();

/** One MCP-over-HTTP exchange (`cua-driver serve` with CUA_DRIVER_RS_MCP_HTTP_PORT). */
export const HttpEventSchema = z
  .object({
    ...EventBase,
    kind: z.literal("http"),
    duration_ms: z.number().nonnegative(),
    request: z.object({ method: z.string(), path: z.string(), body: StoredBytesSchema }).strict(),
    response: z.object({ status: z.number().int(), content_type: z.string().optional(), body: StoredBytesSchema }).strict(),
    frames: z.array(FrameSpliceSchema).optional(),
  })
  .strict();

/**
 * One recorded event of a cassette, by `kind` (a CLI call, an MCP line, an HTTP exchange, an
 * in-process call).
 */
export const CassetteEventSchema = z.discriminatedUnion("kind", [
  CliEventSchema,
  McpOpenEventSchema,
  McpLineEventSchema,
  McpStderrEventSchema,
  McpCloseEventSchema,
  HttpEventSchema,
]);
/** A cassette event as `CassetteEventSchema` parses it. */
export type CassetteEvent = z.infer<typeof CassetteEventSchema>;
export type McpOpenEvent = z.infer<typeof McpOpenEventSchema>;
export type McpLineEvent = z.infer<typeof McpLineEventSchema>;
export type McpStderrEvent = z.infer<typeof McpStderrEventSchema>;
export type McpCloseEvent = z.infer<typeof McpCloseEventSchema>;
export type HttpEvent = z.infer<typeof HttpEventSchema>;
