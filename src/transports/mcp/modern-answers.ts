/**
 * What a cua-driver ≥ 0.28 stdio server answers that 0.21 did not, as the replay serves it: the
 * era check of every request (`era.ts`), `initialize` refused in the modern era, `server/discover`
 * and `ping` built as `handle_metadata_request` builds them, `tools/call` arguments checked as
 * `validate_tool_call` checks them. Read from trycua/cua `mcp_wire.rs` and `protocol.rs` at
 * 4d6f4a55 (docs/discoveries/modern-mcp-era.md); nothing here was captured from a binary.
 */
import type { JsonRpcMessage } from "#src/replay/engine/request.js";
import type { SynthesizedAnswer } from "#src/schema/replay-log.js";
import { INITIALIZE_INSTRUCTIONS_LINUX } from "#src/driver/binary-reference.js";
import { objectSpans } from "#src/wire/json/spans.js";
import { serdeString } from "#src/wire/json/string.js";
import type { McpCallOptions } from "./answer.js";
import { claimsModern, type EraSession, finishModernLine, legacyLine, MODERN_PROTOCOL_VERSION, type McpEra, protocolErrorLine } from "./era.js";
import { errorLine } from "#src/transports/mcp/wire/envelope.js";
import { loadReferenceSkillPack } from "./skill-pack.js";
import { SKILL_METHODS, type SkillPack, skillResult } from "./skills.js";

/** Where the reconstruction was read, for the replay log's basis. */
export const MODERN_WIRE_SOURCE = "trycua/cua 4d6f4a55 mcp_wire.rs";

/** Where the skill methods were read. */
const SKILLS_SOURCE = "mcp_skills.rs (trycua/cua 4eb8ab51)";

/** `server_capabilities()`: the skill pack's capabilities with `tools` set (mcp_wire.rs:100-104, mcp_skills.rs:122-128). */
export const CAPABILITIES_0_28 = '{"extensions":{"io.modelcontextprotocol/skills":{}},"resources":{},"tools":{}}';

/**
 * `agent_instructions()` on Linux from 0.28 (protocol.rs:363-398 at 4d6f4a55): 0.21's text with
 * its last paragraph replaced by the pointer to the skill the server now serves.
 */
export const INSTRUCTIONS_0_28_LINUX = INITIALIZE_INSTRUCTIONS_LINUX.replace(
  "If the `cua-driver` skill is loaded, follow SKILL.md plus ",
  "The bundled workflow is available at `skill://cua-driver/SKILL.md` through `skills/get` and `resources/read`. Skill activation and consent belong to the host. If the skill is loaded, follow SKILL.md plus ",
);

/** Methods a ≥ 0.28 server answers besides `initialize`, `tools/list` and `tools/call`, in either era. */
export const METADATA_METHODS_0_28: ReadonlySet<string> = new Set(["server/discover", "ping", ...SKILL_METHODS]);

/**
 * The era check before dispatch: the request's era, or the whole answer when the driver answers
 * it at this point — a protocol refusal of `classify_request`/`ProtocolSession`, or a modern
 * `initialize`, which only the legacy arm of the dispatcher serves (`-32601`) — with where that
 * rule was read, for the replay log.
 */
export function eraGate(options: {
  era: EraSession;
  line: string;
  message: JsonRpcMessage & { method: string };
}): { era: McpEra } | { answer: string; basis: string } {
  const { message } = options;
  const decision = options.era.decide({ jsonrpc: jsonrpcOf(options.line), idRaw: message.idRaw, method: message.method, params: message.params });
  if ("refusal" in decision) return { answer: decision.refusal, basis: `${MODERN_WIRE_SOURCE}:25-98 (classify_request, ProtocolSession)` };
  if (decision.era === "modern" && message.method === "initialize") {
    return {
      answer: protocolErrorLine(message.idRaw, -32601, "Unknown method: initialize"),
      basis: "server.rs dispatch_request: initialize only in the legacy era",
    };
  }
  return decision;
}

/** How one request's answers are rendered in its era, or the era check's answer when it refuses the request. */
export type EraRendering =
  | { refused: { answer: string; basis: string } }
  | {
      /** The era the request spoke; undefined where the connection has no eras (before 0.28, HTTP). */
      era: McpEra | undefined;
      /** Finishes a whole response line for that era: the envelope on a modern result, taken off a modern-recorded one for a legacy request. */
      finish(line: string): string;
      /** What `answerMcpCall` needs to render a `tools/call` (its faults included) in that era. */
      call: Pick<McpCallOptions, "finish" | "era">;
    };

/**
 * The era rendering of one request on a connection (`era`: its state, for a driver of 0.28 or
 * later on stdio; absent otherwise): the one used by the replay front and by `record --faults`,
 * so a fault injected while recording is the bytes the replay of that recording serves.
 */
export function eraRendering(options: {
  era: EraSession | undefined;
  driverVersion: string;
  line: string;
  message: JsonRpcMessage & { method: string };
}): EraRendering {
  const { era, message } = options;
  const gate = era ? eraGate({ era, line: options.line, message }) : undefined;
  if (gate && "answer" in gate) return { refused: gate };
  const modern = gate?.era === "modern";
  const finish = (l: string) => (modern ? finishModernLine(l, message.method, options.driverVersion) : era ? legacyLine(l) : l);
  return { era: gate?.era, finish, call: gate ? { finish, era: { era: gate.era, params: message.params } } : {} };
}

/**
 * The refusal of a `tools/call` before any tool is looked up: params missing, no tool name, and
 * from 0.28 (`dual`) an `arguments` that is not an object. Undefined when the call goes on.
 */
export function toolCallRefusal(idRaw: string, params: unknown, dual: boolean): string | undefined {
  if (params === undefined || params === null) return errorLine(idRaw, -32602, "Invalid params: missing params");
  const p = params as Record<string, unknown>;
  if (typeof p.name !== "string") return errorLine(idRaw, -32602, "Invalid params: missing tool name");
  return dual ? argumentsRefusal(idRaw, p) : undefined;
}

/**
 * A modern request over HTTP to a ≥ 0.28 recording: the driver's HTTP endpoint stays legacy-only
 * and rejects the modern era, but how is not known (no recording, no source seen), so the answer
 * says that instead of inventing the driver's refusal. Undefined for a legacy request.
 */
export function httpModernGap(message: JsonRpcMessage & { method: string }): string | undefined {
  if (!claimsModern({ method: message.method, params: message.params })) return undefined;
  return protocolErrorLine(
    message.idRaw,
    -32603,
    "cua-contract: cua-driver's HTTP endpoint rejects the 2026-07-28 era, and what it answers is not known (docs/eras.md)",
  );
}

/**
 * `validate_tool_call`'s argument check, in both eras from 0.28: an `arguments` that is there and
 * not an object (`null` included) is refused before any tool runs.
 */
export function argumentsRefusal(idRaw: string, params: Record<string, unknown>): string | undefined {
  if (!("arguments" in params)) return undefined;
  const args = params.arguments;
  if (typeof args === "object" && args !== null && !Array.isArray(args)) return undefined;
  return protocolErrorLine(idRaw, -32602, "Tool arguments must be an object");
}

/** The modern refusal of a tool the server does not list (`validate_tool_call`, modern era only). */
export function unknownToolLine(idRaw: string, tool: string): string {
  return protocolErrorLine(idRaw, -32602, `Unknown tool: ${tool}`);
}

/** `server/discover` and `ping` results (before the envelope), as `handle_metadata_request` builds them. */
export function metadataResult(method: string): { raw: string; synthesized: SynthesizedAnswer } | undefined {
  if (method === "server/discover") {
    const raw = `{"capabilities":${CAPABILITIES_0_28},"instructions":${serdeString(INSTRUCTIONS_0_28_LINUX)},"supportedVersions":[${serdeString(MODERN_PROTOCOL_VERSION)}]}`;
    const detail = `${MODERN_WIRE_SOURCE}:107-116 (server/discover), protocol.rs:363-398 (Linux instructions); reconstructed from source, not captured`;
    return { raw, synthesized: { kind: "discover", basis: { source: "reference", detail } } };
  }
  if (method === "ping") {
    return { raw: "{}", synthesized: { kind: "ping", basis: { source: "reference", detail: `${MODERN_WIRE_SOURCE}:117 (ping answers {})` } } };
  }
  return undefined;
}

/** `initialize` from 0.28: the fixed legacy result, with 0.28's capabilities and instructions (protocol.rs:343-350 at 4d6f4a55). */
export function initializeResult0_28(driverVersion: string): { raw: string; synthesized: SynthesizedAnswer } {
  const raw = `{"capabilities":${CAPABILITIES_0_28},"instructions":${serdeString(INSTRUCTIONS_0_28_LINUX)},"protocolVersion":"2025-06-18","serverInfo":{"name":"cua-driver","version":${serdeString(driverVersion)}}}`;
  return {
    raw,
    synthesized: { kind: "initialize", basis: { source: "reference", detail: "trycua/cua 4d6f4a55 protocol.rs:343-398 (Linux) with the recorded version" } },
  };
}

/**
 * A skill method's answer from the reference skill pack (./skill-pack.ts): a result with its
 * basis, or the driver's `-32602` refusal, or — where this installation holds no pack — an error
 * that says so rather than a made-up catalogue.
 */
export function skillAnswer(options: {
  method: string;
  params: unknown;
  idRaw: string;
  pack?: SkillPack | null;
}): { raw: string; synthesized: SynthesizedAnswer } | { line: string; synthesized: SynthesizedAnswer } {
  const pack = options.pack === undefined ? referencePack() : options.pack;
  if (!pack) {
    return {
      line: protocolErrorLine(options.idRaw, -32603, `cua-contract replay: no skill pack in this installation to answer ${options.method} (docs/eras.md)`),
      synthesized: { kind: "skill_pack", basis: { source: "reference", detail: "no skill pack in this installation: cua-contract's error, not the driver's" } },
    };
  }
  const answer = skillResult(pack, options.method, options.params);
  if ("refusal" in answer) {
    return {
      line: protocolErrorLine(options.idRaw, -32602, answer.refusal),
      synthesized: { kind: "skill_pack", basis: { source: "reference", detail: `${SKILLS_SOURCE}: the refusal of ${options.method}` } },
    };
  }
  const which = answer.file ? `${answer.file.name} from ${answer.file.source}` : pack.files.map((f) => `${f.name}@${f.source.split("@")[1]}`).join(", ");
  const detail = `${SKILLS_SOURCE} over docs/reference/cua-driver-skills-named-commits, not a 0.28.x release's pack: ${which}`;
  return { raw: answer.raw, synthesized: { kind: "skill_pack", basis: { source: "reference", detail } } };
}

let loaded: SkillPack | null | undefined;
function referencePack(): SkillPack | null {
  if (loaded === undefined) loaded = loadReferenceSkillPack() ?? null;
  return loaded;
}

function jsonrpcOf(line: string): unknown {
  try {
    const span = objectSpans(line).get("jsonrpc");
    return span ? JSON.parse(line.slice(span.start, span.end)) : undefined;
  } catch {
    return undefined;
  }
}
