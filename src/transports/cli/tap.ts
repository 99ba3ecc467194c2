import { tap, type StandIn, type Tap } from "#src/driver/stand-in.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { callCli } from "#src/shim-server/mount.js";
import { buildCliEvent, startCliCall } from "./recorded-call.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";
import type { RecordFaults } from "#src/transports/recording/record-faults.js";
import { recordFaultedCliCall } from "./tap-faults.js";
import { outFilesOf, readIfWritten } from "./out-files.js";
import { cliRequest } from "#src/replay/engine/request.js";

/**
 * The recording of per-call CLI invocations as a tap on whatever stand-in answers them (a binary
 * or the runtime): times each one, picks up the files the call wrote, and appends the event
 * before the answer goes back. An invocation the driver never answered (it could not be started)
 * is not recorded.
 */
export function cliRecordingTap(options: RecordingParts & { origin?: "harness" | "recorder" }): Tap<CliRequest, CliResponse> {
  const { clock } = options;
  return (request) => {
    const started = clock();
    const startSeq = startCliCall(options.sink);
    const outFiles = outFilesOf(request.argv, request.cwd);
    return (reply) => {
      if (reply.type !== "answer") return;
      const response = reply.answer;
      const duration = clock() - started;
      const files: Record<string, { bytes: Buffer; path: string }> = {};
      for (const f of outFiles) {
        const bytes = readIfWritten(f.absolute, f.before);
        if (bytes) files[f.flag] = { bytes, path: f.given };
      }
      options.sink.append(
        buildCliEvent({
          call: {
            argv: request.argv,
            stdin: request.stdin,
            stdout: response.stdout,
            stderr: response.stderr,
            exitCode: response.exitCode,
            ...(response.signal ? { signal: response.signal } : {}),
            t_ms: started,
            duration_ms: duration,
            files,
            origin: options.origin ?? "harness",
            start_seq: startSeq,
          },
          redactor: options.redactor,
          putFrame: options.sink.putFrame,
        }),
      );
    };
  };
}

/**
 * Records one per-call CLI invocation answered by `live`: through the recording tap, or, under
 * `record --faults`, as the fault the plan selects for it.
 */
export async function recordCliCall(
  options: RecordingParts & {
    request: CliRequest;
    origin?: "harness" | "recorder";
    live: StandIn<CliRequest, CliResponse>;
    /** `record --faults`: harness calls the plan selects get their fault here. */
    faults?: RecordFaults;
  },
): Promise<CliResponse> {
  const { request } = options;
  if (options.faults && (options.origin ?? "harness") === "harness") {
    const replayRequest = cliRequest({ argv: request.argv, stdin: request.stdin.toString("utf8"), env: request.env });
    const fault = options.faults.select(replayRequest);
    if (fault) return recordFaultedCliCall({ ...options, faults: options.faults, replayRequest, fault });
  }
  return (await callCli(tap(options.live, cliRecordingTap(options)), request)).response;
}
