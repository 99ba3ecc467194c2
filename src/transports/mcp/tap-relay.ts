import { setTimeout as sleep } from "node:timers/promises";
import type { SelectedFault } from "#src/faults/select.js";
import { parseJsonRpc } from "#src/replay/engine/exchanges.js";
import { mcpRequest, type ReplayRequest } from "#src/replay/engine/request.js";
import { answerMcpCall, type McpAnswer, type McpCallOptions } from "./answer.js";
import { connectionEra, type EraSession } from "./era.js";
import { eraRendering, toolCallRefusal } from "./modern-answers.js";
import type { McpStreamRecording } from "./stream-recording.js";
import type { AnswerProvenance } from "#src/schema/cassette.js";
import { recordedFault, type RecordFaults } from "#src/transports/recording/record-faults.js";

/** The recorder between a harness and one `cua-driver mcp` stream. */
export interface McpRelay {
  fromHarness(line: string): void;
  /** `provenance`: what of the line the live stand-in built itself, recorded beside it. */
  fromDriver(line: string, provenance?: AnswerProvenance): void;
  /** The harness closed stdin: true when the stream is stuck on a hung call (the driver is ended, the stream exits 0, as on replay). */
  stuck(): boolean;
}

/**
 * Records every line both ways and passes it on; with `record --faults`, a `tools/call` the plan
 * selects gets its fault exactly as the replay's MCP renderer serves it: a fault after the effect
 * is forwarded and the driver's real answer recorded (then withheld, delayed, cut or replaced); any
 * other fault never reaches the driver. A hung call leaves the stream stuck, as the driver's
 * one-request-at-a-time loop would: later requests are recorded and never answered. From 0.28 the
 * relay follows the stream's era as the replay front does (./modern-answers.ts `eraRendering`): a
 * fault is rendered in the era of its request, and a request the driver refuses before any tool
 * (for its era, or its arguments) draws no fault, as on replay.
 */
export function createMcpRelay(options: {
  recording: McpStreamRecording;
  stream: number;
  toHarness(line: string): void;
  toDriver(line: string): void;
  /** The stream dies as a crashing driver's does: stderr, stdout EOF, this exit code; the driver is stopped. */
  die(code: number, stderr?: string): void;
  faults?: RecordFaults;
}): McpRelay {
  const { recording, faults } = options;
  const pending = new Map<string, Selected>();
  const era = faults ? connectionEra(faults.driverVersion, "mcp") : undefined;
  let stuck = false;
  let dead = false;
  // answers go out in order, a delayed one holding back those after it
  let out = Promise.resolve();
  const send = (line: string, delayMs = 0) => {
    out = out.then(async () => {
      if (delayMs > 0) await sleep(delayMs);
      if (!dead) options.toHarness(line);
    });
  };
  const serve = (answer: McpAnswer) => {
    if (answer.type === "line") send(answer.line, answer.delayMs);
    else if (answer.type === "hang") stuck = true;
    else if (answer.type === "exit") {
      dead = true;
      out = out.then(() => options.die(answer.code, answer.stderr));
    } else {
      dead = true;
      out = out.then(() => options.die(1));
    }
  };

  return {
    fromHarness(line) {
      if (dead) return;
      if (stuck) {
        recording.line("c2s", line);
        return;
      }
      const selected = faults ? selectFault({ faults, line, stream: options.stream, era }) : undefined;
      if (!selected) {
        recording.line("c2s", line);
        options.toDriver(line);
        return;
      }
      const mark = recordedFault(selected.fault);
      recording.line("c2s", line, mark);
      if (mark.forwarded) {
        pending.set(selected.idRaw, selected);
        options.toDriver(line);
        return;
      }
      const answer = answerMcpCall({
        decision: faults!.decision({ request: selected.request, fault: selected.fault }),
        idRaw: selected.idRaw,
        transport: "mcp",
        ...selected.call,
      });
      if (answer.type === "line") recording.line("s2c", answer.line);
      serve(answer);
    },
    fromDriver(line, provenance) {
      recording.line("s2c", line, undefined, provenance);
      if (dead) return;
      const idRaw = pending.size > 0 ? parseJsonRpc(line)?.idRaw : undefined;
      const faulted = idRaw !== undefined ? pending.get(idRaw) : undefined;
      if (!faulted || idRaw === undefined) {
        if (!stuck) send(line);
        return;
      }
      pending.delete(idRaw);
      const exchange = {
        seq: 0,
        transport: "mcp" as const,
        request: faulted.request,
        kind: "other" as const,
        epoch: 0,
        origin: "harness" as const,
        durationMs: 0,
        rpc: { response: line },
      };
      serve(
        answerMcpCall({ decision: faults!.decision({ request: faulted.request, fault: faulted.fault, exchange }), idRaw, transport: "mcp", ...faulted.call }),
      );
    },
    stuck: () => stuck,
  };
}

/** A faulted `tools/call`: its request, its fault, and how its answer is rendered in its era. */
interface Selected {
  request: ReplayRequest;
  fault: SelectedFault;
  idRaw: string;
  call: Pick<McpCallOptions, "finish" | "era">;
}

/**
 * The fault for a request line, if the plan selects one: only a `tools/call` that passes the
 * replay front's own checks first (JSON-RPC, the era, the params). Every request goes through the
 * stream's era state, as through the driver's.
 */
function selectFault(options: { faults: RecordFaults; line: string; stream: number; era: EraSession | undefined }): Selected | undefined {
  const { faults, line } = options;
  const message = parseJsonRpc(line);
  if (!message || message.method === undefined || message.idRaw === undefined || !/"jsonrpc"\s*:/.test(line)) return undefined;
  const rendering = eraRendering({ era: options.era, driverVersion: faults.driverVersion, line, message: { ...message, method: message.method } });
  if ("refused" in rendering || message.method !== "tools/call") return undefined;
  if (toolCallRefusal(message.idRaw, message.params, options.era !== undefined)) return undefined;
  const request = mcpRequest({ message, stream: options.stream });
  const fault = faults.select(request);
  return fault ? { request, fault, idRaw: message.idRaw, call: rendering.call } : undefined;
}
