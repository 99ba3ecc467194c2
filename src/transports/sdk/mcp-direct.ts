/**
 * `cua-driver mcp` in direct mode (Linux/Windows bare `mcp`), answered by the in-process runtime:
 * newline-delimited JSON-RPC, one request at a time in order, notifications unanswered,
 * `initialize` with the runtime's version, `tools/list` = the runtime's inventory bytes,
 * `tools/call` = the runtime's result bytes, never re-serialised.
 */
import { INITIALIZE_INSTRUCTIONS_LINUX } from "./binary-reference.js";
import type { SdkDriver } from "./sdk-types.js";
import { member, parseSerdeJson, serdeCompact, serdeString, stringValue, type SerdeNode } from "./serde-json.js";
import { driverErrorText, permissionDeniedText, type ToolNames } from "./tool-names.js";

export interface McpDirectOptions {
  driver: SdkDriver;
  version: string;
  protocolVersion: string;
  listToolsJson: string;
  names: ToolNames;
  /** The raw result of a tool the binary hosts itself (check_for_update), else undefined. */
  hostCall?(tool: string): Promise<string | undefined>;
  send(line: string): void;
}

export interface McpDirectSession {
  line(line: string): void;
  /** Resolves when every line received so far has been answered. */
  drain(): Promise<void>;
}

export function createMcpDirectSession(options: McpDirectOptions): McpDirectSession {
  let queue = Promise.resolve();
  return {
    line(line) {
      queue = queue.then(async () => {
        const reply = await answer(options, line);
        if (reply !== undefined) options.send(reply);
      });
    },
    drain: () => queue,
  };
}

/** The response line for one request line, or undefined for blank lines and notifications. */
export async function answer(options: Omit<McpDirectOptions, "send">, line: string): Promise<string | undefined> {
  if (line.trim() === "") return undefined;
  let request: SerdeNode;
  try {
    request = parseSerdeJson(line);
  } catch {
    return PARSE_ERROR;
  }
  const method = stringValue(member(request, "method"));
  if (request.kind !== "object" || method === undefined || member(request, "jsonrpc") === undefined) return PARSE_ERROR;
  const idNode = member(request, "id");
  if (!idNode || (idNode.kind === "scalar" && idNode.raw === "null")) return undefined;
  const id = serdeCompact(idNode);
  const params = member(request, "params");
  if (method === "initialize") return envelope(id, "result", initializeResult(options));
  if (method === "tools/list") return envelope(id, "result", options.listToolsJson);
  if (method !== "tools/call") return error(id, -32601, `Unknown method: ${method}`);
  if (!params || params.kind === "scalar" && params.raw === "null") return error(id, -32602, "Invalid params: missing params");
  const name = stringValue(member(params, "name"));
  if (name === undefined) return error(id, -32602, "Invalid params: missing tool name");
  if (!options.names.classified.has(name)) {
    return envelope(id, "result", toolError(permissionDeniedText(name), '{"code":"permission_denied"}'));
  }
  const args = withoutReservedArgs(member(params, "arguments"));
  try {
    const hosted = await options.hostCall?.(name);
    if (hosted !== undefined) return envelope(id, "result", hosted);
    const result = await options.driver.callTool(name, args);
    return envelope(id, "result", result.rawJson);
  } catch (failure) {
    return envelope(id, "result", toolError(driverErrorText(failure), '{"exit_code":1}'));
  }
}

/** Arguments as the runtime receives them: `{}` when absent, reserved `_…` keys removed. */
export function withoutReservedArgs(args: SerdeNode | undefined): string {
  if (!args || (args.kind === "scalar" && args.raw === "null")) return "{}";
  if (args.kind !== "object") return serdeCompact(args);
  return serdeCompact({ kind: "object", entries: args.entries.filter((e) => !e.key.startsWith("_")) });
}

const PARSE_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}';

function initializeResult(options: { version: string; protocolVersion: string }): string {
  return `{"capabilities":{"tools":{}},"instructions":${serdeString(INITIALIZE_INSTRUCTIONS_LINUX)},"protocolVersion":${serdeString(options.protocolVersion)},"serverInfo":{"name":"cua-driver","version":${serdeString(options.version)}}}`;
}

function envelope(id: string, kind: "result" | "error", body: string): string {
  return `{"jsonrpc":"2.0","id":${id},"${kind}":${body}}`;
}

function error(id: string, code: number, message: string): string {
  return envelope(id, "error", `{"code":${code},"message":${serdeString(message)}}`);
}

function toolError(text: string, structured: string): string {
  return `{"content":[{"text":${serdeString(text)},"type":"text"}],"isError":true,"structuredContent":${structured}}`;
}
