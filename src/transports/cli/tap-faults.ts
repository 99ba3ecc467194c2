import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import type { SelectedFault } from "#src/faults/select.js";
import { deliverCliAnswer } from "./deliver-cli.js";
import { answerCli } from "./answer.js";
import type { RecordedExchange } from "#src/replay/engine/exchanges.js";
import type { ReplayRequest } from "#src/replay/engine/request.js";
import { systemClock } from "#src/runtime/clock-system.js";
import { buildCliEvent, startCliCall } from "./recorded-call.js";
import type { StandIn } from "#src/driver/stand-in.js";
import { callCli } from "#src/shim-server/mount.js";
import { outFilesOf, readIfWritten } from "./out-files.js";
import { recordedFault, type RecordFaults } from "#src/transports/recording/record-faults.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";

/**
 * One per-call invocation with a fault from the plan: a fault after the effect forwards the call,
 * records the driver's real answer and serves the fault built from it; any other fault never
 * reaches the driver and records what the harness got. Either way the harness gets exactly what
 * the replay's CLI renderer serves for that fault.
 */
export async function recordFaultedCliCall(
  options: RecordingParts & {
    request: CliRequest;
    replayRequest: ReplayRequest;
    fault: SelectedFault;
    faults: RecordFaults;
    live: StandIn<CliRequest, CliResponse>;
  },
): Promise<CliResponse> {
  const { request, replayRequest, fault, clock } = options;
  const mark = recordedFault(fault);
  const started = clock();
  const startSeq = startCliCall(options.sink);
  const append = (call: { response: CliResponse; files?: Record<string, { bytes: Buffer; path: string }> }) =>
    options.sink.append({
      ...buildCliEvent({
        call: {
          argv: request.argv,
          stdin: request.stdin,
          stdout: call.response.stdout,
          stderr: call.response.stderr,
          exitCode: call.response.exitCode,
          ...(call.response.signal ? { signal: call.response.signal } : {}),
          t_ms: started,
          duration_ms: clock() - started,
          files: call.files ?? {},
          origin: "harness",
          start_seq: startSeq,
        },
        redactor: options.redactor,
        putFrame: options.sink.putFrame,
      }),
      fault: mark,
    } as Parameters<typeof options.sink.append>[0]);

  if (!mark.forwarded) {
    const answer = answerCli({ decision: options.faults.decision({ request: replayRequest, fault }) });
    const delivered = await deliverCliAnswer({ answer, request, clock: systemClock });
    append({ response: delivered.response });
    return delivered.response;
  }
  const outFiles = outFilesOf(request.argv, request.cwd);
  const { response, answered } = await callCli(options.live, request);
  if (!answered) return response;
  const files: Record<string, { bytes: Buffer; path: string }> = {};
  for (const f of outFiles) {
    const bytes = readIfWritten(f.absolute, f.before);
    if (bytes) files[f.flag] = { bytes, path: f.given };
  }
  // the driver's real answer goes in the cassette before the harness gets the fault
  append({ response, files });
  const exchange: RecordedExchange = {
    seq: 0,
    transport: "cli",
    request: replayRequest,
    kind: "other",
    epoch: 0,
    origin: "harness",
    durationMs: clock() - started,
    cli: {
      stdout: response.stdout.toString("utf8"),
      stderr: response.stderr.toString("utf8"),
      exitCode: response.exitCode,
      ...(response.signal ? { signal: response.signal } : {}),
      files: Object.fromEntries(Object.entries(files).map(([flag, f]) => [flag, { ref: flag, path: f.path }])),
    },
  };
  const decision = options.faults.decision({ request: replayRequest, fault, exchange });
  const answer = answerCli({ decision, frame: (ref) => files[ref]!.bytes.toString("base64") });
  return (await deliverCliAnswer({ answer, request, clock: systemClock })).response;
}
