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

/** How a call failed on the way: a timeout, a broken transport, or the daemon gone. */
export type TransportFailureKind = "timeout" | "transport_error" | "daemon_died";

/** The call's outcome is unknown: the driver may or may not have acted. */
export interface TransportFailure {
  kind: TransportFailureKind;
  tool: string;
  message?: string;
}

/** What a driver call gives back: a tool result, or a transport failure whose outcome is unknown. */
export type Reply = ToolResult | TransportFailure;

/** Whether a reply is a transport failure (the outcome unknown) rather than a tool result. */
export function isTransportFailure(reply: Reply): reply is TransportFailure {
  return typeof (reply as TransportFailure).kind === "string" && !("content" in reply);
}

/** The MCP annotations of a tool (read-only, destructive, idempotent, open world). */
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

/** Per-call options: how long to wait for the answer. */
export interface CallOptions {
  timeoutMs?: number;
}

/**
 * The Driver port: what a harness needs from cua-driver, whatever the transport (per-call CLI, MCP,
 * the runtime in process, a replay).
 */
export interface Driver {
  call(tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<Reply>;
  listTools(): Promise<ToolInfo[]>;
}

/** Time, injected so replays and tests are deterministic. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
