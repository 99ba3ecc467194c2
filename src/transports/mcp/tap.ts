import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";
import { createMcpRelay } from "./tap-relay.js";
import { faultStreamEnder, openMcpStreamRecording } from "./stream-recording.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";

/**
 * The recording of one `cua-driver mcp` stream as a tap on whatever answers it live (a binary's
 * stream or the runtime's): every line in both directions exactly as sent, plus stderr and the
 * exit, with `record --faults` injected by the relay. `open` starts the live stream on the io it
 * is given (the tap's side). A stream ended by an injected fault stops the live side and reports
 * nothing more of it. `goneUnreported`: the live side says nothing when the harness goes away
 * (the runtime's session), so the tap closes the recording itself.
 */
export function tapMcpStream(
  options: RecordingParts & {
    argv: string[];
    io: McpIo;
    stream: number;
    open: (io: McpIo) => McpSessionHandler;
    goneUnreported?: boolean;
  },
): McpSessionHandler {
  const { io } = options;
  const recording = openMcpStreamRecording({ ...options, argv: options.argv });
  // the stream ended by an injected fault (a death, or stdin EOF on a hung call): the live side is stopped, its own end not reported
  const fault = faultStreamEnder({ recording, io, stop: () => live.gone?.() });
  const endStream = fault.end;
  const live = options.open({
    send: (line, provenance) => relay.fromDriver(line, provenance),
    stderr: (data) => {
      if (fault.ended) return;
      recording.stderr(data);
      io.stderr(data);
    },
    exit: (code, signal) => {
      if (fault.ended) return;
      recording.close(code, signal);
      io.exit(code, signal);
    },
  });
  const relay = createMcpRelay({
    recording,
    stream: options.stream,
    toHarness: (line) => io.send(line),
    toDriver: (line) => live.line(line),
    die: endStream,
    ...(options.faults ? { faults: options.faults } : {}),
  });
  return {
    line: (line) => relay.fromHarness(line),
    end: () => (relay.stuck() ? endStream(0) : live.end()),
    gone: () => {
      if (options.goneUnreported) recording.close(null, "SIGTERM");
      live.gone?.();
    },
  };
}
