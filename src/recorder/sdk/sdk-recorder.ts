/**
 * Records what the SDK backend answers, with the same recording code as a binary: every per-call
 * CLI invocation becomes a `cli` event and every MCP line an `mcp` event, exactly as the harness
 * saw them (redacted, images moved to frames), in a cassette whose header says `driver.source: "sdk"`.
 */
import { sha256Hex } from "#src/cassette/frame-ref.js";
import { recordCliCall } from "#src/transports/cli/tap.js";
import { tapMcpStream } from "#src/transports/mcp/tap.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";
import type { CassetteHeader } from "#src/schema/cassette.js";
import type { CliRequest, CliResponse, McpIo, McpSessionHandler, ShimBackend } from "#src/shim-server/backend.js";
import { SDK_PACKAGE } from "#src/runtime/load.js";
import type { SdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { sdkCliStandIn } from "#src/transports/sdk/stand-in.js";

type RecorderParts = RecordingParts & { sdk: SdkBackend };

/** The cassette header's `driver` for a recording made from the runtime. */
export function sdkDriverInfo(sdk: SdkBackend): CassetteHeader["driver"] {
  return {
    version: sdk.metadata.driverVersion,
    platform: `${process.platform}-${process.arch}`,
    source: "sdk",
    location: `sdk:${SDK_PACKAGE}@${sdk.location.version}`,
  };
}

export function createSdkRecorderBackend(parts: RecorderParts): ShimBackend {
  let streams = 0;
  return {
    cli: (request) => recordCli({ ...parts, request, origin: "harness" }),
    mcp: (init, io) => recordMcp({ ...parts, init, io, stream: streams++ }),
    close: () => parts.sdk.close?.() ?? Promise.resolve(),
  };
}

/** Asks the backend `--version` and `manifest` (recorded with origin "recorder"), as for a binary. */
export async function captureSdkIdentity(parts: RecorderParts): Promise<{ versionOutput: string; manifestSha256: string }> {
  const ask = (argv: string[]) =>
    recordCli({
      ...parts,
      origin: "recorder",
      request: { argv, stdin: Buffer.alloc(0), cwd: process.cwd(), env: { PATH: process.env.PATH ?? "" }, signal: new AbortController().signal },
    });
  const version = await ask(["--version"]);
  const manifest = await ask(["manifest"]);
  return { versionOutput: version.stdout.toString("utf8"), manifestSha256: sha256Hex(manifest.stdout) };
}

function recordCli(options: RecorderParts & { request: CliRequest; origin: "harness" | "recorder" }): Promise<CliResponse> {
  return recordCliCall({ ...options, live: sdkCliStandIn(options.sdk) });
}

function recordMcp(
  options: RecorderParts & { init: { argv: string[]; cwd: string; env: Record<string, string> }; io: McpIo; stream: number },
): McpSessionHandler {
  // the runtime's session says nothing when the harness goes away: the tap closes the recording
  return tapMcpStream({ ...options, argv: options.init.argv, open: (tapped) => options.sdk.mcp(options.init, tapped), goneUnreported: true });
}
