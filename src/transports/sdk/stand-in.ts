import { perRequestStandIn, type StandIn } from "#src/driver/stand-in.js";
import type { CliRequest, CliResponse, ShimBackend } from "#src/shim-server/backend.js";

/** The runtime in process as a per-call stand-in: each `cua-driver …` invocation answered as the binary prints it. */
export function sdkCliStandIn(sdk: Pick<ShimBackend, "cli">): StandIn<CliRequest, CliResponse> {
  return perRequestStandIn("cli", async (request) => ({ type: "answer", answer: await sdk.cli(request) }));
}

export { sdkMcpStandIn } from "./mcp-direct.js";
