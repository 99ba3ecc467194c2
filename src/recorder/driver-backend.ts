import type { ShimBackend } from "#src/shim-server/backend.js";
import { recordCliCall } from "#src/transports/cli/tap.js";
import { recordMcpSession } from "#src/transports/mcp/binary-recording.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";
import { binaryCliStandIn } from "#src/transports/cli/live.js";

/**
 * The recorder backend for a real `cua-driver` binary: every shim invocation goes to the binary's
 * stand-in unchanged, the driver's bytes go back to the harness unchanged, and a tap records the call.
 */
export function createDriverRecorderBackend(options: RecordingParts & { driver: string }): ShimBackend {
  const live = binaryCliStandIn({ driver: options.driver, who: "cua-contract record" });
  let streams = 0;
  const sessions = new Set<{ stop(): Promise<void> }>();
  return {
    cli: (request) => recordCliCall({ ...options, request, live }),
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
