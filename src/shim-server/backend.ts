import type { AnswerProvenance } from "#src/schema/cassette.js";

/**
 * What the `cua-driver` shim mounts: a stand-in (src/driver/stand-in.ts) per call, through
 * `mountCli` (mount.ts), and an MCP stream per `cua-driver mcp` — the replay's or the runtime's
 * stand-in on the shim's stdio (`mountMcpStdio`), or a recording tap over a live stream. The
 * shim-server owns the socket and the framing; a backend only sees requests.
 */

/** One per-call invocation of the shim (`cua-driver call …`, `cua-driver --version`, …). */
export interface CliRequest {
  argv: string[];
  stdin: Buffer;
  cwd: string;
  env: Record<string, string>;
  /** Aborted when the shim process goes away (the harness killed it, e.g. on its own timeout). */
  signal: AbortSignal;
  /** Whether the harness's stdin was a terminal (then the shim did not read it). */
  stdinIsTty?: boolean;
}

export interface CliResponse {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number | null;
  signal?: NodeJS.Signals;
}

/** The shim's side of an MCP stdio session (`cua-driver mcp …`). */
export interface McpIo {
  /**
   * Send one line (without its newline) to the harness's stdout. `provenance`: what of it the
   * stand-in answering the stream built itself, not the driver (a recording tap writes it down).
   */
  send(line: string, provenance?: AnswerProvenance): void;
  /** Send raw bytes to the harness's stderr. */
  stderr(data: Buffer | string): void;
  /** Close the harness's stdout and end the shim with this exit code. */
  exit(code: number | null, signal?: NodeJS.Signals): void;
}

export interface McpSessionHandler {
  /** A line the harness wrote (without its newline). */
  line(line: string): void;
  /** The harness closed stdin (or the shim went away). */
  end(): void;
  /** The shim process went away (killed, or its stdout closed): stop the session now. Called after end(). */
  gone?(): void;
}

export interface ShimBackend {
  cli(request: CliRequest): Promise<CliResponse>;
  /** `transport: "http"` when the session is one connection of MCP over HTTP (the driver's era rules are stdio's). */
  mcp(init: { argv: string[]; cwd: string; env: Record<string, string>; transport?: "stdio" | "http" }, io: McpIo): McpSessionHandler;
  /** Called once when the session ends (flush, summarise). */
  close?(): Promise<void>;
}
