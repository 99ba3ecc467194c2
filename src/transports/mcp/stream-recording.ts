import { storeText } from "#src/cassette/store-text.js";
import { learnFromToolCall, learnFromToolResult, parseMcpMessage } from "./secrets.js";
import { eventTime, type RecordingParts } from "#src/transports/recording/recording-parts.js";
import type { AnswerProvenance, RecordedFault } from "#src/schema/cassette.js";

/** The cassette side of one MCP stream: open on creation, then lines, stderr and one close. */
export interface McpStreamRecording {
  /**
   * One line as sent; `fault` marks a request the recorder injected a fault into, `provenance` an
   * answer the live stand-in built itself (or around the driver's bytes), never the driver's own.
   */
  line(dir: "c2s" | "s2c", line: string, fault?: RecordedFault, provenance?: AnswerProvenance): void;
  stderr(data: Buffer | string): void;
  /** Records the end of the stream; only the first call counts. */
  close(exitCode: number | null, signal?: string): void;
}

/**
 * Records one `cua-driver mcp` stream whatever answers it (a binary or the runtime): every line
 * exactly as sent (redacted, images moved to frames), secrets learned from a request before its
 * answer is stored.
 */
export function openMcpStreamRecording(options: RecordingParts & { stream: number; argv: string[] }): McpStreamRecording {
  const { sink, redactor, clock, stream } = options;
  const toolById = new Map<string, string>();
  let closed = false;
  sink.append({ kind: "mcp_open", t_ms: eventTime(clock()), stream, argv: options.argv.map((a) => redactor.text(a)), origin: "harness" });
  return {
    line(dir, line, fault, provenance) {
      learn({ redactor, toolById, dir, line });
      const s = storeText({ bytes: line, field: "line", redactor, putFrame: sink.putFrame });
      sink.append({
        kind: "mcp",
        t_ms: eventTime(clock()),
        stream,
        dir,
        line: s.stored,
        ...(s.splices.length ? { frames: s.splices } : {}),
        origin: "harness",
        ...(fault ? { fault } : {}),
        ...(dir === "s2c" && provenance?.synthesized ? { synthesized: provenance.synthesized } : {}),
        ...(dir === "s2c" && provenance?.wrapped && !provenance.synthesized ? { wrapped: provenance.wrapped } : {}),
      });
    },
    stderr(data) {
      const s = storeText({ bytes: data, field: "data", redactor, putFrame: sink.putFrame });
      sink.append({ kind: "mcp_stderr", t_ms: eventTime(clock()), stream, data: s.stored, origin: "harness" });
    },
    close(exitCode, signal) {
      if (closed) return;
      closed = true;
      sink.append({ kind: "mcp_close", t_ms: eventTime(clock()), stream, exit_code: exitCode, ...(signal ? { signal } : {}), origin: "harness" });
    },
  };
}

function learn(options: { redactor: RecordingParts["redactor"]; toolById: Map<string, string>; dir: "c2s" | "s2c"; line: string }): void {
  if (!options.redactor.enabled) return;
  const message = parseMcpMessage(options.line);
  if (!message) return;
  const id = JSON.stringify(message.id ?? null);
  if (options.dir === "c2s") {
    const tool = learnFromToolCall(options.redactor, message);
    if (tool !== undefined) options.toolById.set(id, tool);
  } else {
    learnFromToolResult(options.redactor, options.toolById.get(id), message);
  }
}

/**
 * Ends a recorded MCP stream the way an injected fault ends it (a death, or stdin EOF on a hung
 * call): the fault's stderr to both the cassette and the harness, the stream closed with its code,
 * the harness told, then `stop` for the driver side. Only the first `end` counts; `ended` says
 * whether it came, so the driver's own end is not reported after it.
 */
export function faultStreamEnder(options: { recording: McpStreamRecording; io: { stderr(data: string): void; exit(code: number): void }; stop: () => void }): {
  end(code: number, stderr?: string): void;
  readonly ended: boolean;
} {
  const { recording, io } = options;
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    end(code, stderr) {
      if (ended) return;
      ended = true;
      if (stderr) {
        recording.stderr(stderr);
        io.stderr(stderr);
      }
      recording.close(code);
      io.exit(code);
      options.stop();
    },
  };
}
