/**
 * The Driver port: what a harness needs from cua-driver, whatever the transport (per-call CLI,
 * MCP stdio, HTTP, or the in-process replayer). Outcomes are values: a timeout or a lost
 * transport resolves to a TransportFailure, it does not throw.
 */

export type ContentBlock = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string } | { type: string; [key: string]: unknown };

/** A tool result as MCP `tools/call` carries it in `result`. */
export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** The exact bytes the result arrived as, when the transport has them. */
  raw?: string;
}

export type TransportFailureKind = "timeout" | "transport_error" | "daemon_died";

/** The call's outcome is unknown: the driver may or may not have acted. */
export interface TransportFailure {
  kind: TransportFailureKind;
  tool: string;
  message?: string;
}

export type Reply = ToolResult | TransportFailure;

export function isTransportFailure(reply: Reply): reply is TransportFailure {
  return typeof (reply as TransportFailure).kind === "string" && !("content" in reply);
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One `tools/list` entry, with cua-driver's extensions. */
export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  capabilities?: string[];
  risk?: { class: string; enforcement?: string; operation_sensitive?: boolean; version?: string };
}

export interface CallOptions {
  timeoutMs?: number;
}

export interface Driver {
  call(tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<Reply>;
  listTools(): Promise<ToolInfo[]>;
}

/** Time, injected so replays and tests are deterministic. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
