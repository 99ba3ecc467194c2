import type { FrameRef, FrameSplice } from "#src/schema/bytes.js";
import type { FrameExt } from "#src/cassette/frame-ref.js";
import { imageExt } from "#src/cassette/frame-ref.js";
import type { CassetteEventInput } from "#src/cassette/writer.js";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import type { Redactor } from "#src/cassette/redact.js";
import { storeText } from "#src/cassette/store-text.js";
import { eventTime } from "#src/transports/recording/recording-parts.js";

export interface RecordedCliCall {
  argv: string[];
  stdin: Buffer;
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number | null;
  signal?: string;
  t_ms: number;
  duration_ms: number;
  /** Files the driver wrote, by flag (`--screenshot-out-file`): their bytes and the path given. */
  files?: Record<string, { bytes: Buffer; path: string }>;
  origin?: "harness" | "recorder";
  /** The call's place in the order this recording's per-call calls started (`startCliCall`). */
  start_seq?: number;
}

/** Per recording (its sink): how many per-call CLI calls have started. */
const startedCalls = new WeakMap<object, number>();

/**
 * Number a per-call CLI call as it starts (0, 1, … per recording). Its event is written when it
 * finishes, so calls that overlap are written in the order they finished; the event's `start_seq`
 * keeps the order they started in, which is the order the replay matches them in.
 */
export function startCliCall(recording: object): number {
  const n = startedCalls.get(recording) ?? 0;
  startedCalls.set(recording, n + 1);
  return n;
}

/**
 * Builds the cassette event for one per-call CLI invocation: secrets learned and redacted, images
 * in stdout and written files moved to frames, every other byte kept as it was.
 */
export function buildCliEvent(options: {
  call: RecordedCliCall;
  redactor: Redactor;
  putFrame: (bytes: Uint8Array, ext: FrameExt) => FrameRef;
}): CassetteEventInput {
  const { call, redactor } = options;
  const parsed = parseDriverArgv(call.argv);
  if (parsed.subcommand === "call") {
    redactor.learnFromCall(parsed.tool, parsed.json ?? call.stdin.toString("utf8"));
    redactor.learnFromResult(parsed.tool, call.stdout.toString("utf8"));
  }
  const frames: FrameSplice[] = [];
  const field = (name: string, bytes: Buffer) => {
    const s = storeText({ bytes, field: name, redactor, putFrame: options.putFrame });
    frames.push(...s.splices);
    return s.stored;
  };
  const event: CassetteEventInput = {
    kind: "cli",
    t_ms: eventTime(call.t_ms),
    duration_ms: eventTime(call.duration_ms),
    argv: call.argv.map((a) => redactor.text(a)),
    stdout: field("stdout", call.stdout),
    stderr: field("stderr", call.stderr),
    exit_code: call.exitCode,
    origin: call.origin ?? "harness",
    ...(call.start_seq !== undefined ? { start_seq: call.start_seq } : {}),
  };
  if (call.stdin.length > 0) event.stdin = field("stdin", call.stdin);
  if (call.signal) event.signal = call.signal;
  const files: NonNullable<typeof event.files> = {};
  for (const [flag, file] of Object.entries(call.files ?? {})) {
    const ext = imageExt(file.bytes);
    if (ext) files[flag] = { ref: options.putFrame(file.bytes, ext), path: file.path };
  }
  if (Object.keys(files).length > 0) event.files = files;
  if (frames.length > 0) event.frames = frames;
  return event;
}
