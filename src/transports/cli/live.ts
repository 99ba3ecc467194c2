import { perRequestStandIn, type StandIn } from "#src/driver/stand-in.js";
import { runDriverOnce } from "#src/runtime/driver-process.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";

/**
 * A cua-driver executable as a per-call stand-in: each request runs the binary once with the
 * harness's argv, stdin, working directory and environment, and its stdout, stderr and exit come
 * back unchanged (the harness killing the shim kills the driver). A binary that cannot be started
 * closes the connection with exit 127 and `who` saying so on stderr.
 */
export function binaryCliStandIn(options: { driver: string; who: string }): StandIn<CliRequest, CliResponse> {
  const { driver } = options;
  return perRequestStandIn("cli", async (request) => {
    const run = await runDriverOnce({ driver, ...request });
    if (run.spawnError)
      return { type: "closed", code: 127, stderr: `${options.who}: cannot run the driver ${driver}: ${run.spawnError.message}\n`, cause: run.spawnError };
    return { type: "answer", answer: { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode, ...(run.signal ? { signal: run.signal } : {}) } };
  });
}
