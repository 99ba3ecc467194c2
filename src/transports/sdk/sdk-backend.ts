/**
 * A shim backend whose driver is the real runtime in-process (`@trycua/cua-driver`): per-call
 * CLI invocations are answered as `cua-driver` 0.21.0 prints them and `cua-driver mcp` streams as
 * direct-mode MCP; per-call `call`s pass the daemon's ended-session guard first. What still differs from a real binary is listed in docs/discoveries/sdk-backend.md.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CliRequest, CliResponse, McpIo, McpSessionHandler, ShimBackend } from "#src/shim-server/backend.js";
import { driverCommand } from "#src/transports/cli/wire/argv.js";
import { locateSdk, loadSdk, type LoadSdkOptions, type SdkLocation } from "#src/runtime/load.js";
import { sdkMcpStandIn, withoutReservedArgs } from "./mcp-direct.js";
import { mountMcpStdio } from "#src/shim-server/mcp-stdio.js";
import { renderCall } from "#src/transports/cli/wire/render-call.js";
import { renderDescribe, renderHelp, renderListTools, renderManifest, renderVersion, type RenderedText } from "#src/transports/cli/wire/render-static.js";
import { rustIoErrorText } from "./rust-io-error.js";
import type { SdkDriver, SdkMetadata } from "#src/runtime/sdk-types.js";
import { parseSerdeJson, SerdeJsonError, type SerdeNode } from "#src/wire/json/tree.js";
import { permissionDeniedText, unknownToolText, USAGE_EXIT_CODE } from "#src/driver/messages.js";
import { driverErrorText, toolNames, type ToolNames } from "./tool-names.js";
import { resolveBinaryPath } from "#src/runtime/binary-path.js";
import { createDaemonLifecycle, LIFECYCLE_COMMANDS, type DaemonLifecycle, type LifecycleCommand } from "./daemon-lifecycle.js";
import { createEndedSessions, type EndedSessions } from "./ended-sessions.js";
import { withHostToolsRaw } from "#src/transports/mcp/wire/host-tools.js";
import { renderMcpConfig } from "#src/transports/cli/wire/render-mcp-config.js";
import { checkForUpdateResult, renderCheckUpdate } from "#src/transports/cli/wire/update-check.js";
import { githubLatestRelease, updateState, type LatestRelease } from "./update-check.js";

/** The published runtime standing in for the `cua-driver` binary behind the PATH shim. */
export interface SdkBackend extends ShimBackend {
  readonly metadata: SdkMetadata;
  readonly location: SdkLocation;
  /** The runtime itself, for callers that want to measure or bypass the shim. */
  readonly driver: SdkDriver;
}

/**
 * Loads the runtime at `version` (default: the pinned one) and builds a backend around one driver
 * instance. `latest` answers the update check (default: GitHub, as the binary asks it).
 */
export async function createSdkBackend(options: { version?: string; latest?: LatestRelease } & LoadSdkOptions = {}): Promise<SdkBackend> {
  const location = await locateSdk(options.version, options);
  const sdk = await loadSdk(location.version, options);
  const driver = await sdk.CuaDriver.create({ claudeCodeCompatibility: false });
  const [metadata, listToolsJson] = await Promise.all([driver.metadata(), driver.listToolsJson()]);
  return sdkBackendFor({ driver, metadata, listToolsJson, location, ...(options.latest ? { latest: options.latest } : {}) });
}

export function sdkBackendFor(options: {
  driver: SdkDriver;
  metadata: SdkMetadata;
  listToolsJson: string;
  location: SdkLocation;
  latest?: LatestRelease;
}): SdkBackend {
  const { driver, metadata, location } = options;
  // the binary's inventory: the runtime's tools, then the tools the binary registers itself
  const listToolsJson = withHostToolsRaw(options.listToolsJson);
  const hostToolsAdded = listToolsJson !== options.listToolsJson;
  const names = toolNames(listToolsJson);
  const latest = options.latest ?? githubLatestRelease;
  const hostCall = async (tool: string): Promise<string | undefined> =>
    tool === "check_for_update" ? checkForUpdateResult(await updateState({ version: metadata.driverVersion, latest })) : undefined;
  const daemons = createDaemonLifecycle({ pid: process.pid });
  const endedSessions = createEndedSessions();
  return {
    metadata,
    location,
    driver,
    cli: (request) => answerCli({ request, driver, metadata, listToolsJson, names, hostCall, latest, daemons, endedSessions }),
    mcp: (init, io) =>
      mcpStartupRefusal({ argv: init.argv, io }) ??
      mcpSession({ io, driver, metadata, listToolsJson, hostToolsAdded, names, hostCall, latest, http: init.transport === "http" }),
    close: async () => {
      daemons.close();
      await driver.shutdown?.();
    },
  };
}

interface Context {
  driver: SdkDriver;
  metadata: SdkMetadata;
  listToolsJson: string;
  names: ToolNames;
  /** The raw result of a tool the binary hosts itself (check_for_update), else undefined. */
  hostCall(tool: string): Promise<string | undefined>;
  latest: LatestRelease;
}

async function answerCli(options: Context & { request: CliRequest; daemons: DaemonLifecycle; endedSessions: EndedSessions }): Promise<CliResponse> {
  const { request, metadata, listToolsJson } = options;
  const parsed = driverCommand(request.argv);
  switch (parsed.command) {
    case "version":
      return response(renderVersion(metadata.driverVersion));
    case "help":
      return response(renderHelp(metadata.driverVersion));
    case "list-tools":
      return response(renderListTools(listToolsJson));
    case "describe":
      return response(renderDescribe(listToolsJson, parsed.tool));
    case "manifest": {
      const binaryPath = await resolveBinaryPath(request.env);
      return response(renderManifest({ version: metadata.driverVersion, binaryPath, pretty: parsed.pretty }));
    }
    case "call":
      return call({ ...options, ...parsed });
    case "mcp":
      return failure("cua-contract: `cua-driver mcp` is a stream and cannot be answered as a single call", 1);
    case "other":
      if (LIFECYCLE_COMMANDS.has(parsed.name)) return options.daemons.answer({ command: parsed.name as LifecycleCommand, request });
      if (parsed.name === "check-update") {
        const state = await updateState({ version: metadata.driverVersion, latest: options.latest });
        return response(renderCheckUpdate({ state, json: request.argv.includes("--json") }));
      }
      if (parsed.name === "mcp-config") {
        return response(renderMcpConfig({ client: clientFlag(request.argv), binary: await resolveBinaryPath(request.env) }));
      }
      return failure(
        `cua-contract: the sdk backend does not emulate \`cua-driver ${parsed.name}\` (it answers --version, --help, list-tools, describe, manifest, check-update, mcp-config, call, mcp, serve, status and stop)`,
        64,
      );
  }
}

async function call(
  options: Context & {
    request: CliRequest;
    endedSessions: EndedSessions;
    tool: string;
    json?: string | undefined;
    implicit: boolean;
    screenshotOutFile?: string | undefined;
  },
): Promise<CliResponse> {
  const { request, tool } = options;
  let args: SerdeNode | undefined;
  if (options.json !== undefined) {
    try {
      args = parseSerdeJson(options.json);
    } catch (error) {
      if (!(error instanceof SerdeJsonError)) throw error;
      return failure(positionalJsonError({ tool, implicit: options.implicit, received: options.json, error }), 2);
    }
  } else {
    // Invalid JSON on stdin is silently `{}` (read_stdin_json).
    try {
      args = parseSerdeJson(request.stdin.toString("utf8").replace(/^\uFEFF/, ""));
    } catch {
      args = undefined;
    }
  }
  if (!options.names.classified.has(tool)) return failure(permissionDeniedText(tool), 1);
  // The daemon rejects a call on an ended session before it dispatches (and so before `Unknown tool`).
  const guard = options.endedSessions.guard({ tool, args });
  if (guard !== undefined) return failure(guard, 1);
  if (!options.names.registered.has(tool) && tool !== "type_text_chars") return failure(unknownToolText(tool), USAGE_EXIT_CODE);
  let rawJson: string;
  try {
    rawJson = (await options.hostCall(tool)) ?? (await options.driver.callTool(tool, withoutReservedArgs(args), { signal: request.signal })).rawJson;
  } catch (error) {
    return failure(driverErrorText(error), 1);
  }
  options.endedSessions.answered({ tool, args, rawJson });
  const rendered = renderCall({ raw: rawJson, ...(options.screenshotOutFile !== undefined ? { outFile: options.screenshotOutFile } : {}) });
  let stderr = "";
  if (options.screenshotOutFile !== undefined) {
    const target = path.resolve(request.cwd, options.screenshotOutFile);
    for (const { base64 } of rendered.files) {
      try {
        await writeFile(target, Buffer.from(base64, "base64"));
      } catch (error) {
        stderr += `--screenshot-out-file: failed to write ${options.screenshotOutFile}: ${rustIoErrorText(error)}\n`;
      }
    }
  }
  return { stdout: Buffer.from(rendered.stdout), stderr: Buffer.from(stderr), exitCode: rendered.exitCode };
}

function positionalJsonError(options: { tool: string; implicit: boolean; received: string; error: SerdeJsonError }): string {
  const invocation = options.implicit ? `cua-driver ${options.tool}` : "cua-driver call";
  const pipe = options.implicit ? `cua-driver ${options.tool}` : `cua-driver call ${options.tool}`;
  return [
    `error: positional JSON arg to '${invocation}' did not parse: ${options.error.message}`,
    `       received: ${options.received}`,
    "",
    "hint: PowerShell 5.1 strips quotes around JSON field names in",
    "      multi-field args. Pipe the JSON via stdin instead:",
    `        '{"pid":1234,"window_id":5678}' | ${pipe}`,
    "",
    "      Or use PowerShell 7+ (pwsh) which preserves the quotes.",
  ].join("\n");
}

// Direct mode ends on stdin EOF, after the request in flight has been answered; the runtime's session stops when the shim is gone.
function mcpSession(options: Context & { io: McpIo; http: boolean; hostToolsAdded: boolean }): McpSessionHandler {
  const standIn = sdkMcpStandIn({
    ...(options.http ? { transport: "http" as const } : {}),
    driver: options.driver,
    version: options.metadata.driverVersion,
    protocolVersion: options.metadata.mcpProtocolVersion,
    listToolsJson: options.listToolsJson,
    hostToolsAdded: options.hostToolsAdded,
    names: options.names,
    hostCall: options.hostCall,
  });
  return mountMcpStdio(standIn.open(), options.io, { stopWhenGone: true });
}

const SERVE_ONLY_FLAGS = [
  "--permission-mode",
  "--capability-manifest",
  "--approve-capability-manifest",
  "--session-policy",
  "--approve-session-policy",
  "--dangerously-bypass-approvals",
  "--no-permissions-gate",
];

// `cua-driver mcp` refuses serve-only authorization flags (exit 64) and `--direct` with `--socket` (exit 1) before any JSON-RPC.
function mcpStartupRefusal(options: { argv: string[]; io: McpIo }): McpSessionHandler | undefined {
  const flag = SERVE_ONLY_FLAGS.find((f) => options.argv.some((a) => a === f || a.startsWith(`${f}=`)));
  let message: string | undefined;
  let code = 64;
  if (flag) {
    message =
      `cua-driver mcp does not accept ${flag}; authorization flags belong to \`cua-driver serve\`.\n` +
      "For direct MCP, use CUA_DRIVER_PERMISSION_MODE and the related CUA_DRIVER_* environment variables.\n" +
      "Otherwise start a configured daemon and connect with `cua-driver mcp --socket <path>`.\n";
  } else if (options.argv.includes("--direct") && options.argv.some((a) => a === "--socket" || a.startsWith("--socket="))) {
    message = "cua-driver-rs: --direct and --socket are mutually exclusive\n";
    code = 1;
  }
  if (message === undefined) return undefined;
  options.io.stderr(message);
  options.io.exit(code);
  return { line: () => {}, end: () => {} };
}

/** `flag_value(&args, "--client")` (cli.rs:1017-1031): the first `--client V` or `--client=V`. */
function clientFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--client") return argv[i + 1];
    if (argv[i]!.startsWith("--client=")) return argv[i]!.slice("--client=".length);
  }
  return undefined;
}

function response(text: RenderedText): CliResponse {
  return { stdout: Buffer.from(text.stdout), stderr: Buffer.from(text.stderr), exitCode: text.exitCode };
}

function failure(message: string, exitCode: number): CliResponse {
  return { stdout: Buffer.alloc(0), stderr: Buffer.from(`${message}\n`), exitCode };
}
