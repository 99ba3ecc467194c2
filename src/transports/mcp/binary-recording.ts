import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { binaryMcpStream, type LiveMcpStream } from "./live-binary.js";
import { tapMcpStream } from "./tap.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";

/**
 * Records one `cua-driver mcp` session of the real driver: the binary's live stream, tapped.
 * Closing either side closes the other. A driver that cannot be started is not recorded as
 * having said anything: the harness is told on stderr and the stream closes with 127.
 */
export function recordMcpSession(
  options: RecordingParts & {
    driver: string;
    init: { argv: string[]; cwd: string; env: Record<string, string> };
    io: McpIo;
    stream: number;
  },
): McpSessionHandler & { closed: Promise<void>; stop(): Promise<void> } {
  let live: LiveMcpStream | undefined;
  const handler = tapMcpStream({
    ...options,
    argv: options.init.argv,
    open: (tapped) =>
      (live = binaryMcpStream({
        file: options.driver,
        who: "cua-contract record",
        init: options.init,
        io: tapped,
        cannotRun: (error) => {
          options.io.stderr(`cua-contract record: cannot run the driver ${options.driver}: ${error.message}\n`);
          tapped.exit(127);
        },
      })),
  });
  const started = live!;
  return { ...handler, closed: started.closed, stop: () => started.stop() };
}
