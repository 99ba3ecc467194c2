import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, ErrorCode, ListToolsResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Driver, Reply, ToolInfo, ToolResult } from "#src/driver/port.js";
import { driverStdioTransport, QUIET_DRIVER_ENV } from "#src/runtime/driver-process.js";

/** How the MCP adapter starts `cua-driver mcp`. */
export interface McpDriverOptions {
  /** The cua-driver executable (default `cua-driver`). */
  command?: string;
  /** Arguments after the command (default `["mcp"]`). */
  args?: string[];
  /** Extra environment; telemetry and the update check are turned off unless set here. */
  env?: Record<string, string>;
  cwd?: string;
  /** Deadline per call when the caller gives none (default 30 s). */
  timeoutMs?: number;
}

/** A Driver over `cua-driver mcp` (stdio); dispose it to end the process. */
export interface McpDriver extends Driver, AsyncDisposable {
  /** Ends the `cua-driver mcp` process (stdin EOF, then the SDK's shutdown). */
  close(): Promise<void>;
  /** Lines the driver wrote to stderr, for diagnosis. */
  stderr(): string;
}

/** Why an MCP request failed, as the Driver port's outcome values. */
function failure(tool: string, error: unknown): Reply {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) return { kind: "timeout", tool, message };
    if (error.code === ErrorCode.ConnectionClosed) return { kind: "daemon_died", tool, message };
    if (error.code === ErrorCode.InternalError && /daemon transport error/.test(message)) return { kind: "daemon_died", tool, message };
  }
  return { kind: "transport_error", tool, message };
}

/**
 * The MCP stdio transport: one long-lived `cua-driver mcp` process spoken to with the official
 * MCP SDK client. Results are taken as the driver sent them (no output-schema validation), and
 * a timeout, a closed connection or a dead proxy daemon come back as outcome values.
 */
export async function createMcpDriver(options: McpDriverOptions = {}): Promise<McpDriver> {
  let stderr = "";
  const transport = await driverStdioTransport({
    command: options.command ?? "cua-driver",
    args: options.args ?? ["mcp"],
    env: { ...(process.env as Record<string, string>), ...QUIET_DRIVER_ENV, ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-16_384);
  });
  const client = new Client({ name: "cua-contract-harness", version: "0.1.0" }, { capabilities: {} });
  await client.connect(transport);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.close();
  };
  return {
    async call(tool, args, callOptions = {}): Promise<Reply> {
      const timeout = callOptions.timeoutMs ?? options.timeoutMs ?? 30_000;
      try {
        const result = await client.request({ method: "tools/call", params: { name: tool, arguments: args } }, CallToolResultSchema, { timeout });
        return result as unknown as ToolResult;
      } catch (error) {
        return failure(tool, error);
      }
    },
    async listTools(): Promise<ToolInfo[]> {
      const result = await client.request({ method: "tools/list", params: {} }, ListToolsResultSchema, { timeout: options.timeoutMs ?? 30_000 });
      return result.tools as unknown as ToolInfo[];
    },
    close,
    stderr: () => stderr,
    [Symbol.asyncDispose]: close,
  };
}
