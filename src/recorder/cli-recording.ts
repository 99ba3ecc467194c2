import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseDriverArgv } from "../wire/cli/argv.js";
import type { CliRequest, CliResponse } from "../shim-server/backend.js";
import { buildCliEvent } from "./cli-event.js";
import type { RecordingParts } from "./recording-parts.js";
import type { RecordFaults } from "./record-faults.js";
import { recordFaultedCliCall } from "./cli-faults.js";
import { cliRequest } from "../replay/engine/request.js";

/** Flags whose value is a file the driver writes; the file is stored as a frame. */
const OUT_FILE_FLAGS = ["--screenshot-out-file"] as const;

/** What answered one per-call invocation; `recorded: false` keeps it out of the cassette (the driver never ran). */
export interface CliAnswer {
  response: CliResponse;
  recorded: boolean;
}

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
      },
      redactor: options.redactor,
      putFrame: options.sink.putFrame,
    }),
  );
  return response;
}

export function outFilesOf(argv: string[], cwd: string) {
  const parsed = parseDriverArgv(argv);
  const out: Array<{ flag: string; given: string; absolute: string; before: string | undefined }> = [];
  for (const flag of OUT_FILE_FLAGS) {
    const value = parsed.flags.get(flag);
    if (typeof value === "string" && value) {
      const absolute = path.resolve(cwd || ".", value);
      out.push({ flag, given: value, absolute, before: fileStamp(absolute) });
    }
  }
  return out;
}

// Only a file the driver (re)wrote during this call counts; a stale file from before is not its output.
function fileStamp(file: string): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    return st.isFile() ? `${st.mtimeNs}:${st.ctimeNs}:${st.size}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

export function readIfWritten(file: string, before: string | undefined): Buffer | undefined {
  const after = fileStamp(file);
  if (after === undefined || after === before) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
