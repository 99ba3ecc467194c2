import { perRequestStandIn, type StandIn } from "#src/driver/stand-in.js";
import type { CliRequest, CliResponse, ShimBackend } from "#src/shim-server/backend.js";
import { answer, type McpDirectOptions } from "./mcp-direct.js";

/** The runtime in process as a per-call stand-in: each `cua-driver …` invocation answered as the binary prints it. */
export function sdkCliStandIn(sdk: Pick<ShimBackend, "cli">): StandIn<CliRequest, CliResponse> {
  return perRequestStandIn("cli", async (request) => ({ type: "answer", answer: await sdk.cli(request) }));
}

/**
 * The runtime in process as the stand-in of `cua-driver mcp` in direct mode: one JSON-RPC line in,
 * the binary's answer line out (nothing for a notification or a blank line). Each line is answered
 * on its own, so a connection holds nothing.
 */
export function sdkMcpStandIn(options: McpDirectOptions): StandIn<string, string> {
  return perRequestStandIn("mcp", async (line) => {
    const reply = await answer(options, line);
    return reply === undefined ? { type: "none" } : { type: "answer", answer: reply };
  });
}
