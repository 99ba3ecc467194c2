import { findDriver } from "#src/recorder/find-driver.js";
import type { CassetteHeader } from "#src/schema/cassette.js";
import type { CliRequest, CliResponse, McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { mountCli } from "#src/shim-server/mount.js";
import { binaryCliStandIn } from "#src/transports/cli/live.js";
import { binaryMcpStream } from "#src/transports/mcp/live-binary.js";
import { sdkCliStandIn } from "#src/transports/sdk/stand-in.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { sdkDriverInfo } from "#src/recorder/sdk/sdk-recorder.js";
import { resolvedSdkVersion } from "#src/recorder/sdk/recording-driver.js";

/** The live driver record-missing forwards to: per-call CLI invocations in, the driver's bytes out, through the binary's or the runtime's stand-in. */
export interface LiveDriver {
  /** Who answers (the header's `driver` shape): version, platform, `source` (`sdk` for the runtime, `binary` for an executable). */
  readonly info: CassetteHeader["driver"];
  cli(request: CliRequest): Promise<CliResponse>;
  /** One `cua-driver mcp` stream (absent: this driver is not grown over MCP). */
  mcp?(init: { argv: string[]; cwd: string; env: Record<string, string> }, io: McpIo): McpSessionHandler;
  close(): Promise<void>;
}

/** `sdk[:VERSION]`: the published runtime in process; otherwise a cua-driver executable (`source`: a real binary, or a test double). */
export async function openLiveDriver(driver: string, options: { source?: "binary" | "synthetic" } = {}): Promise<LiveDriver> {
  const version = await resolvedSdkVersion(driver);
  if (version !== undefined) {
    const sdk = await createSdkBackend({ version });
    return {
      info: sdkDriverInfo(sdk),
      cli: mountCli(sdkCliStandIn(sdk)),
      mcp: (init, io) => sdk.mcp(init, io),
      close: () => sdk.close?.() ?? Promise.resolve(),
    };
  }
  const file = findDriver({ driver });
  const run = mountCli(binaryCliStandIn({ driver: file, who: "cua-contract" }));
  const said = await run({
    argv: ["--version"],
    stdin: Buffer.alloc(0),
    cwd: process.cwd(),
    env: process.env as Record<string, string>,
    signal: new AbortController().signal,
  });
  // read as the recorder reads it (recorder/identity.ts)
  const parsed = /\b(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(said.stdout.toString("utf8"));
  return {
    info: { version: parsed?.[1] ?? null, platform: `${process.platform}-${process.arch}`, source: options.source ?? "binary", location: file },
    cli: run,
    mcp: (init, io) => binaryMcpStream({ file, who: "cua-contract", init, io }),
    close: async () => {},
  };
}
