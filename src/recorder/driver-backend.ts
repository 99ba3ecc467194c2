import type { ShimBackend } from "#src/shim-server/backend.js";
import { recordCliCall } from "./cli-recording.js";
import { recordMcpSession } from "./mcp-session.js";
import type { RecordingParts } from "./recording-parts.js";
import { runDriverOnce } from "./run-driver.js";

/**
 * The recorder backend for a real `cua-driver` binary: every shim invocation is forwarded to the
 * driver unchanged, the driver's bytes go back to the harness unchanged, and the call is recorded.
 */
export function createDriverRecorderBackend(options: RecordingParts & { driver: string }): ShimBackend {
  let streams = 0;
  const sessions = new Set<{ stop(): Promise<void> }>();
  return {
    cli: (request) =>
      recordCliCall({
        ...options,
        request,
        answer: async () => {
          const run = await runDriverOnce({ driver: options.driver, ...request });
          if (run.spawnError) {
            const stderr = `cua-contract record: cannot run the driver ${options.driver}: ${run.spawnError.message}\n`;
            return { response: { stdout: Buffer.alloc(0), stderr: Buffer.from(stderr), exitCode: 127 }, recorded: false };
          }
          return {
            response: { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode, ...(run.signal ? { signal: run.signal } : {}) },
            recorded: true,
          };
        },
      }),
    mcp(init, io) {
      const session = recordMcpSession({ ...options, init, io, stream: streams++ });
      sessions.add(session);
      void session.closed.then(() => sessions.delete(session));
      return session;
    },
    // MCP drivers still running when the harness is gone are stopped, and their close recorded.
    async close() {
      await Promise.all([...sessions].map((s) => s.stop()));
    },
  };
}
