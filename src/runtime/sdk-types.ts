/**
 * The slice of `@trycua/cua-driver` this project uses, typed structurally so that any published
 * version (0.14 … 0.28) fits and the package stays a dev-only dependency.
 */
export interface SdkToolResult {
  text: string;
  images: Array<{ data: string; mimeType: string }>;
  structuredJson?: string;
  isError: boolean;
  errorCode?: string;
  degraded: boolean;
  /** The exact MCP `CallToolResult` JSON the runtime produced. */
  rawJson: string;
}

export interface SdkMetadata {
  driverVersion: string;
  contractVersion: string;
  toolsListSchemaVersion: string;
  capabilityVersion: string;
  mcpProtocolVersion: string;
  pid: number;
  embedded: boolean;
  hostBundleId?: string;
}

export interface SdkDriver {
  callTool(name: string, argumentsJson: string, asyncOpts?: { signal: AbortSignal }): Promise<SdkToolResult>;
  listToolsJson(asyncOpts?: { signal: AbortSignal }): Promise<string>;
  metadata(asyncOpts?: { signal: AbortSignal }): Promise<SdkMetadata>;
  /** Stops accepting operations (repeat calls are harmless). */
  shutdown?(asyncOpts?: { signal: AbortSignal }): Promise<void>;
}

export interface SdkModule {
  CuaDriver: { create(options?: { claudeCodeCompatibility: boolean }): SdkDriver | Promise<SdkDriver> };
}
