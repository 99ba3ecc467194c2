/**
 * `cua-driver mcp` in direct mode (Linux/Windows bare `mcp`), answered by the in-process runtime
 * (its stand-in is `sdkMcpStandIn`, mounted on the shim's stdio one request at a time in order):
 * newline-delimited JSON-RPC, notifications unanswered,
 * `initialize` with the runtime's version, `tools/list` = the runtime's inventory bytes,
 * `tools/call` = the runtime's result bytes, never re-serialised.
 */
import { INITIALIZE_INSTRUCTIONS_LINUX } from "#src/driver/binary-reference.js";
import type { SdkDriver } from "#src/runtime/sdk-types.js";
import { serdeString } from "#src/wire/json/string.js";
import { member, parseSerdeJson, serdeCompact, stringValue, type SerdeNode } from "#src/wire/json/tree.js";
import { errorLine, PARSE_ERROR_LINE, resultLine } from "#src/wire/mcp/envelope.js";
import { permissionDeniedText } from "#src/driver/messages.js";
import { driverErrorText, type ToolNames } from "./tool-names.js";

export interface McpDirectOptions {
  driver: SdkDriver;
  version: string;
  protocolVersion: string;
  listToolsJson: string;
  names: ToolNames;
  /** The raw result of a tool the binary hosts itself (check_for_update), else undefined. */
  hostCall?(tool: string): Promise<string | undefined>;
}

/** The response line for one request line, or undefined for blank lines and notifications. */
export async function answer(options: McpDirectOptions, line: string): Promise<string | undefined> {
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
  if (method === "initialize") return resultLine(id, initializeResult(options));
  if (method === "tools/list") return resultLine(id, options.listToolsJson);
  if (method !== "tools/call") return errorLine(id, -32601, `Unknown method: ${method}`);
  if (!params || (params.kind === "scalar" && params.raw === "null")) return errorLine(id, -32602, "Invalid params: missing params");
  const name = stringValue(member(params, "name"));
  if (name === undefined) return errorLine(id, -32602, "Invalid params: missing tool name");
  if (!options.names.classified.has(name)) {
    return resultLine(id, toolError(permissionDeniedText(name), '{"code":"permission_denied"}'));
  }
  const args = withoutReservedArgs(member(params, "arguments"));
  try {
    const hosted = await options.hostCall?.(name);
    if (hosted !== undefined) return resultLine(id, hosted);
    const result = await options.driver.callTool(name, args);
    return resultLine(id, result.rawJson);
  } catch (failure) {
    return resultLine(id, toolError(driverErrorText(failure), '{"exit_code":1}'));
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
