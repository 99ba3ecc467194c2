import { perRequestStandIn, type StandIn } from "#src/driver/stand-in.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";

/**
 * A per-call stand-in from a function: `recorded: false` is a driver that never ran (the
 * connection closes with the response's stderr and exit code, as a binary that cannot start does).
 */
export function answering(answer: (request: CliRequest) => Promise<{ response: CliResponse; recorded: boolean }>): StandIn<CliRequest, CliResponse> {
  return perRequestStandIn("cli", async (request) => {
    const { response, recorded } = await answer(request);
    return recorded ? { type: "answer", answer: response } : { type: "closed", code: response.exitCode, stderr: response.stderr.toString("utf8") };
  });
}
