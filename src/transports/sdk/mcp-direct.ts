/**
 * `cua-driver mcp` in direct mode (Linux/Windows bare `mcp`), answered by the in-process runtime
 * (its stand-in is `sdkMcpStandIn`, which the sdk backend mounts on the shim's stdio):
 * newline-delimited JSON-RPC, one request at a time in order, notifications unanswered,
 * `initialize` with the runtime's version, `tools/list` = the runtime's inventory bytes,
 * `tools/call` = the runtime's result bytes, never re-serialised. Each answer says what of it the
 * stand-in built rather than the runtime (decision 0271): a recording marks it in the cassette.
 */
import { INITIALIZE_INSTRUCTIONS_LINUX } from "#src/driver/binary-reference.js";
import type { StandIn } from "#src/driver/stand-in.js";
import type { SdkDriver } from "#src/runtime/sdk-types.js";
import { serdeString } from "#src/wire/json/string.js";
import { member, parseSerdeJson, serdeCompact, stringValue, type SerdeNode } from "#src/wire/json/tree.js";
import { errorLine, PARSE_ERROR_LINE, resultLine } from "#src/transports/mcp/wire/envelope.js";
import { permissionDeniedText } from "#src/driver/messages.js";
import { driverErrorText, type ToolNames } from "./tool-names.js";
import { createEraSession, type EraSession, finishModernLine, speaksModern } from "#src/transports/mcp/era.js";
import {
  argumentsRefusal,
  eraGate,
  httpModernGap,
  initializeResult0_28,
  MODERN_WIRE_SOURCE,
  metadataResult,
  skillAnswer,
  unknownToolLine,
} from "#src/transports/mcp/modern-answers.js";
import type { AnswerProvenance, WrappedPart } from "#src/schema/cassette.js";
import type { SynthesizedAnswer, SynthesizedKind } from "#src/schema/replay-log.js";
import { SKILL_METHODS } from "#src/transports/mcp/skills.js";

export interface McpDirectOptions {
  driver: SdkDriver;
  version: string;
  protocolVersion: string;
  listToolsJson: string;
  names: ToolNames;
  /** `http`: one connection of MCP over HTTP, where the driver applies no stdio era rule. */
  transport?: "stdio" | "http";
  /** The raw result of a tool the binary hosts itself (check_for_update), else undefined. */
  hostCall?(tool: string): Promise<string | undefined>;
  /** `listToolsJson` holds the tools the binary registers itself, added to the runtime's. */
  hostToolsAdded?: boolean;
  send(line: string): void;
}

export interface McpDirectSession {
  line(line: string): void;
  /** Resolves when every line received so far has been answered. */
  drain(): Promise<void>;
}

/**
 * The runtime in process as the stand-in of `cua-driver mcp` in direct mode (or of one connection
 * of MCP over HTTP): one JSON-RPC line in, the binary's answer line out, nothing for a notification
 * or a blank line. A connection is one process: from 0.28 it holds the era the process speaks
 * (src/transports/mcp/era.ts).
 */
export function sdkMcpStandIn(options: Omit<McpDirectOptions, "send">): StandIn<string, string> {
  return {
    transport: options.transport === "http" ? "http" : "mcp",
    open() {
      // from 0.28 the process checks every request's era (src/transports/mcp/era.ts)
      const era = speaksModern(options.version) && options.transport !== "http" ? createEraSession() : undefined;
      return {
        async send(line) {
          const reply = await answerWithProvenance(options, line, era);
          if (reply === undefined) return { type: "none" };
          return { type: "answer", answer: reply.line, ...(reply.provenance ? { provenance: reply.provenance } : {}) };
        },
        close() {},
      };
    },
  };
}

/** One direct-mode process answered line by line, one at a time in order (the stand-in's connection, queued). */
export function createMcpDirectSession(options: McpDirectOptions): McpDirectSession {
  const connection = sdkMcpStandIn(options).open();
  let queue = Promise.resolve();
  return {
    line(line) {
      queue = queue.then(async () => {
        const reply = await connection.send(line);
        if (reply.type === "answer") options.send(reply.answer);
      });
    },
    drain: () => queue,
  };
}

/**
 * One answer line and, where the stand-in built it (or parts of it) rather than the runtime, what
 * it built and where that was read: a recording writes it beside the line (decision 0271).
 */
export interface DirectAnswer {
  line: string;
  provenance?: AnswerProvenance;
}

/** The response line for one request line, or undefined for blank lines and notifications. */
export async function answer(options: Omit<McpDirectOptions, "send">, line: string, era?: EraSession): Promise<string | undefined> {
  return (await answerWithProvenance(options, line, era))?.line;
}

/** The response line for one request line with what of it the stand-in built, or undefined for blank lines and notifications. */
export async function answerWithProvenance(options: Omit<McpDirectOptions, "send">, line: string, era?: EraSession): Promise<DirectAnswer | undefined> {
  if (line.trim() === "") return undefined;
  let request: SerdeNode;
  try {
    request = parseSerdeJson(line);
  } catch {
    return built(PARSE_ERROR_LINE, "protocol_error", "a line that is not JSON is -32700");
  }
  const method = stringValue(member(request, "method"));
  if (request.kind !== "object" || method === undefined || member(request, "jsonrpc") === undefined) {
    return built(PARSE_ERROR_LINE, "protocol_error", "a line that is not a JSON-RPC request is -32700");
  }
  const idNode = member(request, "id");
  if (!idNode || (idNode.kind === "scalar" && idNode.raw === "null")) return undefined;
  const id = serdeCompact(idNode);
  const params = member(request, "params");
  const modernOverHttp =
    options.transport === "http" && speaksModern(options.version)
      ? httpModernGap({ idRaw: id, method, params: params ? JSON.parse(serdeCompact(params)) : undefined })
      : undefined;
  if (modernOverHttp)
    return built(modernOverHttp, "era_refusal", "the HTTP endpoint is legacy-only; how it refuses the 2026-07-28 era is not known (docs/eras.md)");
  const gate = era ? eraGate({ era, line, message: { idRaw: id, method, params: params ? JSON.parse(serdeCompact(params)) : undefined } }) : undefined;
  if (gate && "answer" in gate) return built(gate.answer, "era_refusal", gate.basis);
  const modern = gate?.era === "modern";
  const finish = (l: string) => (modern ? finishModernLine(l, method, options.version) : l);
  // a whole answer the stand-in built (enveloped for the modern era like any other result)
  const synthesized = (l: string, s: SynthesizedAnswer): DirectAnswer => ({ line: l, provenance: { synthesized: s } });
  // the runtime's own bytes inside what the stand-in built around them
  const runtime = (l: string, parts: WrappedPart[]): DirectAnswer => {
    const all: WrappedPart[] = [...parts, ...(modern ? (["modern_envelope"] as const) : [])];
    if (all.length === 0) return { line: l };
    return { line: l, provenance: { wrapped: { parts: all, basis: { source: "reference", detail: all.map((p) => WRAPPED_SOURCES[p]).join("; ") } } } };
  };
  if (method === "initialize") {
    if (speaksModern(options.version)) {
      const init = initializeResult0_28(options.version);
      return synthesized(resultLine(id, init.raw), init.synthesized);
    }
    return synthesized(resultLine(id, initializeResult(options)), {
      kind: "initialize",
      basis: { source: "reference", detail: "protocol.rs:331-386 (Linux) with the runtime's version and MCP protocol version" },
    });
  }
  if (method === "tools/list") return runtime(finish(resultLine(id, options.listToolsJson)), options.hostToolsAdded ? ["host_tools"] : []);
  if (era && SKILL_METHODS.has(method)) {
    const skill = skillAnswer({ method, params: params ? JSON.parse(serdeCompact(params)) : undefined, idRaw: id });
    return "line" in skill ? synthesized(skill.line, skill.synthesized) : synthesized(finish(resultLine(id, skill.raw)), skill.synthesized);
  }
  const metadata = era ? metadataResult(method) : undefined;
  if (metadata) return synthesized(finish(resultLine(id, metadata.raw)), metadata.synthesized);
  if (method !== "tools/call") return built(errorLine(id, -32601, `Unknown method: ${method}`), "protocol_error", "an unknown method is -32601");
  if (!params || (params.kind === "scalar" && params.raw === "null")) {
    return built(errorLine(id, -32602, "Invalid params: missing params"), "protocol_error", "a tools/call without params is -32602");
  }
  const name = stringValue(member(params, "name"));
  if (name === undefined)
    return built(errorLine(id, -32602, "Invalid params: missing tool name"), "protocol_error", "a tools/call without a tool name is -32602");
  const badArgs = era ? argumentsRefusal(id, JSON.parse(serdeCompact(params)) as Record<string, unknown>) : undefined;
  if (badArgs) return built(badArgs, "protocol_error", `${MODERN_WIRE_SOURCE} validate_tool_call: arguments that are not an object are -32602`);
  if (!options.names.classified.has(name)) {
    const basis = {
      source: "reference" as const,
      detail: "the driver's rule: a tool it does not list is refused before any lookup (docs/reference/cua-driver-contract.md §0.5)",
    };
    if (modern)
      return synthesized(unknownToolLine(id, name), {
        kind: "permission_denied",
        basis: { ...basis, detail: `${MODERN_WIRE_SOURCE}:167-179 validate_tool_call, in the modern era: ${basis.detail}` },
      });
    return synthesized(resultLine(id, toolError(permissionDeniedText(name), '{"code":"permission_denied"}')), { kind: "permission_denied", basis });
  }
  const args = withoutReservedArgs(member(params, "arguments"));
  try {
    const hosted = await options.hostCall?.(name);
    if (hosted !== undefined) {
      return synthesized(finish(resultLine(id, hosted)), {
        kind: "check_update",
        basis: {
          source: "reference",
          detail: "the tool the binary hosts itself, not the runtime: its result built as the binary builds it from the latest release it found",
        },
      });
    }
    const result = await options.driver.callTool(name, args);
    return runtime(finish(resultLine(id, result.rawJson)), []);
  } catch (failure) {
    return runtime(finish(resultLine(id, toolError(driverErrorText(failure), '{"exit_code":1}'))), ["tool_error"]);
  }
}

/** Where each part the stand-in builds around the runtime's bytes was read. */
const WRAPPED_SOURCES: Record<WrappedPart, string> = {
  modern_envelope: `modern envelope: ${MODERN_WIRE_SOURCE}:123-145 (finish_response), reconstructed from source`,
  host_tools: "host tools: check_for_update, which the binary registers on top of the runtime's tools (history_runtime.rs:419-422 via main.rs:284-298)",
  tool_error: "tool error: the runtime's failure text in the binary's tool-error result",
};

/** A refusal the stand-in builds by the driver's dispatcher rules (docs/reference/cua-driver-contract.md §2.2-2.5). */
function built(line: string, kind: SynthesizedKind, detail: string): DirectAnswer {
  const where = kind === "protocol_error" ? `the driver's dispatcher (docs/reference/cua-driver-contract.md §2.2-2.5): ${detail}` : detail;
  return { line, provenance: { synthesized: { kind, basis: { source: "reference", detail: where } } } };
}

/** Arguments as the runtime receives them: `{}` when absent, reserved `_…` keys removed. */
export function withoutReservedArgs(args: SerdeNode | undefined): string {
  if (!args || (args.kind === "scalar" && args.raw === "null")) return "{}";
  if (args.kind !== "object") return serdeCompact(args);
  return serdeCompact({ kind: "object", entries: args.entries.filter((e) => !e.key.startsWith("_")) });
}

function initializeResult(options: { version: string; protocolVersion: string }): string {
  return `{"capabilities":{"tools":{}},"instructions":${serdeString(INITIALIZE_INSTRUCTIONS_LINUX)},"protocolVersion":${serdeString(options.protocolVersion)},"serverInfo":{"name":"cua-driver","version":${serdeString(options.version)}}}`;
}

function toolError(text: string, structured: string): string {
  return `{"content":[{"text":${serdeString(text)},"type":"text"}],"isError":true,"structuredContent":${structured}}`;
}
