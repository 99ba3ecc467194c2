import type { RecordingParts } from "#src/transports/recording/recording-parts.js";

/** The parts of a JSON-RPC message that teach the redactor a secret. */
export interface McpMessage {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown };
  result?: { structuredContent?: unknown };
}

type Redactor = RecordingParts["redactor"];

/** One MCP message as JSON, or undefined when it is not a JSON object (or array). */
export function parseMcpMessage(text: string): McpMessage | undefined {
  try {
    const m = JSON.parse(text) as unknown;
    return m && typeof m === "object" ? (m as McpMessage) : undefined;
  } catch {
    return undefined;
  }
}

// MCP streams and MCP over HTTP learn secrets alike: a tools/call request's secret arguments, then
// what its result returns (clipboard text), before either is stored.
/** Learns from a `tools/call` request; returns the tool it calls (undefined for any other message). */
export function learnFromToolCall(redactor: Redactor, message: McpMessage): string | undefined {
  if (message.method !== "tools/call" || typeof message.params?.name !== "string") return undefined;
  redactor.learnFromCall(message.params.name, message.params.arguments);
  return message.params.name;
}

/** Learns from the result of a call to `tool` (nothing when the message has no result). */
export function learnFromToolResult(redactor: Redactor, tool: string | undefined, message: McpMessage): void {
  if (message.result) redactor.learnFromResult(tool, message.result.structuredContent);
}
