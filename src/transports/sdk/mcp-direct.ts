/**
 * `cua-driver mcp` in direct mode (Linux/Windows bare `mcp`), answered by the in-process runtime
 * (its stand-in is `sdkMcpStandIn`, which the sdk backend mounts on the shim's stdio):
 * newline-delimited JSON-RPC, one request at a time in order, notifications unanswered,
 * `initialize` with the runtime's version, `tools/list` = the runtime's inventory bytes,
 * `tools/call` = the runtime's result bytes, never re-serialised.
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
  metadataResult,
  skillAnswer,
  unknownToolLine,
} from "#src/transports/mcp/modern-answers.js";
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
          const reply = await answer(options, line, era);
          return reply === undefined ? { type: "none" } : { type: "answer", answer: reply };
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

/** The response line for one request line, or undefined for blank lines and notifications. */
export async function answer(options: Omit<McpDirectOptions, "send">, line: string, era?: EraSession): Promise<string | undefined> {
  if (line.trim() === "") return undefined;
  let request: SerdeNode;
  try {
    request = parseSerdeJson(line);
  } catch {
    return PARSE_ERROR_LINE;
  }
  const method = stringValue(member(request, "method"));
  if (request.kind !== "object" || method === undefined || member(request, "jsonrpc") === undefined) return PARSE_ERROR_LINE;
  const idNode = member(request, "id");
  if (!idNode || (idNode.kind === "scalar" && idNode.raw === "null")) return undefined;
  const id = serdeCompact(idNode);
  const params = member(request, "params");
  const modernOverHttp =
    options.transport === "http" && speaksModern(options.version)
      ? httpModernGap({ idRaw: id, method, params: params ? JSON.parse(serdeCompact(params)) : undefined })
      : undefined;
  if (modernOverHttp) return modernOverHttp;
  const gate = era ? eraGate({ era, line, message: { idRaw: id, method, params: params ? JSON.parse(serdeCompact(params)) : undefined } }) : undefined;
  if (gate && "answer" in gate) return gate.answer;
  const finish = (l: string) => (gate?.era === "modern" ? finishModernLine(l, method, options.version) : l);
  if (method === "initialize") return resultLine(id, speaksModern(options.version) ? initializeResult0_28(options.version).raw : initializeResult(options));
  if (method === "tools/list") return finish(resultLine(id, options.listToolsJson));
  if (era && SKILL_METHODS.has(method)) {
    const skill = skillAnswer({ method, params: params ? JSON.parse(serdeCompact(params)) : undefined, idRaw: id });
    return "line" in skill ? skill.line : finish(resultLine(id, skill.raw));
  }
  const metadata = era ? metadataResult(method) : undefined;
  if (metadata) return finish(resultLine(id, metadata.raw));
  if (method !== "tools/call") return errorLine(id, -32601, `Unknown method: ${method}`);
  if (!params || (params.kind === "scalar" && params.raw === "null")) return errorLine(id, -32602, "Invalid params: missing params");
  const name = stringValue(member(params, "name"));
  if (name === undefined) return errorLine(id, -32602, "Invalid params: missing tool name");
  const badArgs = era ? argumentsRefusal(id, JSON.parse(serdeCompact(params)) as Record<string, unknown>) : undefined;
  if (badArgs) return badArgs;
  if (!options.names.classified.has(name)) {
    if (gate?.era === "modern") return unknownToolLine(id, name);
    return resultLine(id, toolError(permissionDeniedText(name), '{"code":"permission_denied"}'));
  }
  const args = withoutReservedArgs(member(params, "arguments"));
  try {
    const hosted = await options.hostCall?.(name);
    if (hosted !== undefined) return finish(resultLine(id, hosted));
    const result = await options.driver.callTool(name, args);
    return finish(resultLine(id, result.rawJson));
  } catch (failure) {
    return finish(resultLine(id, toolError(driverErrorText(failure), '{"exit_code":1}')));
  }
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
