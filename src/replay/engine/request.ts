import { defaultSocket, VOLATILE_FLAGS } from "#src/driver/cli-surface.js";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import type { ReplayTransport } from "#src/schema/replay-log.js";

/**
 * A request in transport-neutral form. A tool call is `method: "call"` on every transport
 * (CLI `call`, MCP `tools/call`, in-process `call()`), so one recording answers any transport.
 */
export interface ReplayRequest {
  transport: ReplayTransport;
  stream?: number;
  /** `call` for tool calls; otherwise the CLI subcommand (`--version`, `manifest`, …) or MCP method. */
  method: string;
  /** MCP stdio to a driver of 0.28 or later: the era the request spoke (decided by src/transports/mcp/era.ts). */
  era?: "legacy" | "modern";
  tool?: string;
  /** Tool arguments for calls; for other CLI subcommands `{ positionals, flags }`. */
  args?: unknown;
  /** CLI: flags other than the volatile ones, part of the match key. */
  flags?: Record<string, string | true>;
  /** CLI: the path given to `--screenshot-out-file` on this run. */
  outFile?: string;
  /** CLI: the daemon socket the driver would use (`--socket`, else the default). */
  socket?: string;
  /** CLI: the positional JSON did not parse (the driver exits 2). */
  badJson?: string;
}

/**
 * Read a `cua-driver` argv the way the driver does (docs/reference/cua-driver-contract.md §1.1): flags anywhere, value flags
 * consume the next token, an unknown first positional is an implicit `call`.
 */
export function cliRequest(options: { argv: readonly string[]; stdin?: string; env?: Record<string, string | undefined> }): ReplayRequest {
  const { stdin } = options;
  const parsed = parseDriverArgv(options.argv);
  const flags = parsed.flags;
  const socketFlag = flags.get("--socket");
  const socket = typeof socketFlag === "string" ? socketFlag : defaultSocket(options.env?.HOME);
  const outFlag = flags.get("--screenshot-out-file");
  const outFile = typeof outFlag === "string" ? outFlag : undefined;
  const kept: Record<string, string | true> = {};
  // `call` reads no bare flag: the driver skips one it does not know (cli.rs:273-287), so it cannot change the answer
  const ignoresBare = parsed.subcommand === "call";
  for (const [k, v] of flags) if (!VOLATILE_FLAGS.has(k) && !/^(--version|-V|--help|-h)$/.test(k) && !(ignoresBare && v === true)) kept[k] = v;
  const base = { transport: "cli" as const, socket, ...(outFile !== undefined ? { outFile } : {}) };
  if (parsed.subcommand === "version") return { ...base, method: "--version" };
  if (parsed.subcommand === "help") return { ...base, method: "--help" };
  if (parsed.subcommand === "mcp") return { ...base, method: "mcp", flags: kept };
  if (parsed.subcommand === "call") {
    let args: unknown = {};
    let badJson: string | undefined;
    if (parsed.json !== undefined) {
      try {
        args = JSON.parse(parsed.json);
      } catch {
        badJson = parsed.json;
        args = { $unparsed: parsed.json };
      }
    } else if (stdin !== undefined && stdin.length > 0) {
      try {
        args = JSON.parse(stdin.replace(/^\uFEFF/, ""));
      } catch {
        args = {}; // the driver silently treats invalid stdin JSON as {}
      }
    }
    return {
      ...base,
      method: "call",
      ...(parsed.tool !== undefined ? { tool: parsed.tool } : {}),
      args,
      flags: kept,
      ...(badJson !== undefined ? { badJson } : {}),
    };
  }
  return { ...base, method: parsed.subcommand, args: { positionals: parsed.positionals.slice(1) }, flags: kept };
}

/** A parsed JSON-RPC message (one line of MCP traffic). */
export interface JsonRpcMessage {
  /** Raw text of the id as sent (so it can be echoed byte for byte), undefined for notifications. */
  idRaw?: string;
  method?: string;
  params?: unknown;
}

/** The transport-neutral request for an MCP JSON-RPC request. */
export function mcpRequest(options: { message: JsonRpcMessage; stream?: number; transport?: ReplayTransport }): ReplayRequest {
  const { message } = options;
  const base = { transport: options.transport ?? ("mcp" as const), ...(options.stream !== undefined ? { stream: options.stream } : {}) };
  if (message.method === "tools/call") {
    const params = (message.params ?? {}) as Record<string, unknown>;
    return {
      ...base,
      method: "call",
      ...(typeof params.name === "string" ? { tool: params.name } : {}),
      args: params.arguments ?? {},
    };
  }
  // initialize / tools/list / …: the driver ignores the params for its answer
  return { ...base, method: message.method ?? "" };
}
