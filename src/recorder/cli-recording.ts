import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import type { CliAnswer } from "./cli-answer.js";
import { buildCliEvent, startCliCall } from "./cli-event.js";
import type { RecordingParts } from "./recording-parts.js";
import type { RecordFaults } from "./record-faults.js";
import { recordFaultedCliCall } from "./cli-faults.js";
import { outFilesOf, readIfWritten } from "./cli-out-files.js";
import { cliRequest } from "#src/replay/engine/request.js";

export type { CliAnswer } from "./cli-answer.js";

/**
 * Records one per-call CLI invocation whatever answers it (a binary or the runtime): times it,
 * picks up the files the call wrote, and appends the event before the answer goes back.
 */
export async function recordCliCall(
  options: RecordingParts & {
    request: CliRequest;
    origin?: "harness" | "recorder";
    answer: (request: CliRequest) => Promise<CliAnswer>;
    /** `record --faults`: harness calls the plan selects get their fault here. */
    faults?: RecordFaults;
  },
): Promise<CliResponse> {
  const { request, clock } = options;
  if (options.faults && (options.origin ?? "harness") === "harness") {
    const replayRequest = cliRequest({ argv: request.argv, stdin: request.stdin.toString("utf8"), env: request.env });
    const fault = options.faults.select(replayRequest);
    if (fault) return recordFaultedCliCall({ ...options, faults: options.faults, replayRequest, fault });
  }
  const started = clock();
  const startSeq = startCliCall(options.sink);
  const outFiles = outFilesOf(request.argv, request.cwd);
  const { response, recorded } = await options.answer(request);
  if (!recorded) return response;
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
  return response;
}
