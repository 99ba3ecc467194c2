import type { ToolInfo } from "#src/driver/port.js";
import { UserError } from "#src/errors.js";
import { classifiedNames, isReadOnlyTool, KNOWN_TOOLS_0_21 } from "#src/driver/catalogue.js";
import { faultTakesEffect } from "#src/faults/fault-table.js";
import { pidOf, type WindowCandidate } from "#src/driver/refusals.js";
import { listsCandidates } from "#src/faults/refusal.js";
import { createFaultSelector, type SelectedFault } from "#src/faults/select.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { assignEpochs, buildExchanges, type RecordedExchange } from "#src/replay/engine/exchanges.js";
import type { ReplayRequest } from "#src/replay/engine/request.js";
import { windowCandidates } from "#src/replay/engine/window-candidates.js";
import type { CassetteEvent, RecordedFault } from "#src/schema/cassette.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ToolKind } from "#src/schema/replay-log.js";
import type { RecordingSink } from "#src/cassette/recording-sink.js";
import { REFERENCE_DRIVER_VERSION } from "#src/driver/reference-version.js";

/** The fault plan while recording: which harness call gets which fault, decided as the replay decides it. */
export interface RecordFaults {
  readonly plan: FaultPlan;
  readonly seed: number | undefined;
  /** The version of the driver recorded (the cassette header's), so an MCP fault is rendered in the era of its request as the replay renders it. */
  readonly driverVersion: string;
  /** The fault for this harness request, if any (tool calls only, counted in the order the recorder sees them). */
  select(request: ReplayRequest): SelectedFault | undefined;
  /**
   * The replay's decision for a faulted request, so the replay's own renderers build what the
   * harness gets: `exchange` is the driver's real answer when the call was forwarded.
   */
  decision(options: { request: ReplayRequest; fault: SelectedFault; exchange?: RecordedExchange }): Decision;
}

/** The cassette's mark on a faulted event. */
export function recordedFault(fault: SelectedFault): RecordedFault {
  const { kind, ...params } = fault.fault;
  return { kind, rule: fault.rule, ...(Object.keys(params).length ? { params } : {}), forwarded: faultTakesEffect(kind) };
}

/**
 * Fault selection for `record --faults`: the replay's selector over the same plan and seed, with
 * the replay's tool kinds, and window candidates for target-style refusals from the events
 * recorded so far (`events`). Unclassified tools are refused by the driver before any fault can
 * matter, so, as on replay, they draw nothing.
 */
export function createRecordFaults(options: {
  plan: FaultPlan;
  seed?: number;
  /** The recorded driver's version; as on replay, one not known is taken as the reference release. */
  driverVersion?: string | null;
  tools?: readonly ToolInfo[];
  events: () => readonly CassetteEvent[];
}): RecordFaults {
  options.plan.rules.forEach((rule, i) => {
    // a call answered "delivered" that did nothing: recording it would send the call (and the driver would act) or answer it unsent
    if (rule.fault.kind === "no_effect") {
      throw new UserError("a no_effect fault cannot be recorded", {
        code: "BAD_FAULT_PLAN",
        field: `rules[${i}].fault.kind`,
        fix: "Inject no_effect on replay (`cua-contract replay DIR --faults PLAN`), where the recorded answer stands for the call; record without it.",
      });
    }
  });
  const selector = createFaultSelector({ plan: options.plan, ...(options.seed !== undefined ? { seed: options.seed } : {}) });
  const listed = options.tools ? options.tools.map((t) => t.name) : KNOWN_TOOLS_0_21;
  const classified = classifiedNames(listed);
  const kindOf = (request: ReplayRequest): ToolKind =>
    request.method !== "call" || request.tool === undefined ? "other" : isReadOnlyTool(request.tool, options.tools) ? "read" : "mutation";
  return {
    plan: options.plan,
    seed: options.seed,
    driverVersion: options.driverVersion ?? REFERENCE_DRIVER_VERSION,
    select(request) {
      const kind = kindOf(request);
      if (kind === "other" || request.tool === undefined || !classified.has(request.tool)) return undefined;
      return selector.next({ tool: request.tool, kind });
    },
    decision({ request, fault, exchange }) {
      const kind = kindOf(request);
      const args = request.args && typeof request.args === "object" ? (request.args as Record<string, unknown>) : {};
      let candidates: WindowCandidate[] | undefined;
      if (fault.fault.kind === "refusal" && listsCandidates(fault.fault.code)) {
        const exchanges = buildExchanges({ events: options.events(), ...(options.tools ? { tools: options.tools } : {}) });
        const epoch = assignEpochs(exchanges);
        candidates = windowCandidates({ exchanges, epoch, pid: pidOf(args) });
      }
      return {
        n: 0,
        request,
        kind,
        epochBefore: 0,
        epochAfter: 0,
        outcome: "faulted",
        // a call the driver never saw has no answer; the renderers of those faults use none
        exchange: exchange ?? { seq: 0, transport: request.transport === "cli" ? "cli" : "mcp", request, kind, epoch: 0, origin: "harness", durationMs: 0 },
        fault,
        ...(candidates ? { candidates } : {}),
      };
    },
  };
}

/** A sink that also keeps the events it appended (with their seq), for window candidates. */
export function keepingEvents(sink: RecordingSink): { sink: RecordingSink; events: () => readonly CassetteEvent[] } {
  const events: CassetteEvent[] = [];
  return {
    sink: {
      ...sink,
      dir: sink.dir,
      append(event) {
        const seq = sink.append(event);
        events.push({ ...event, seq } as CassetteEvent);
        return seq;
      },
    },
    events: () => events,
  };
}
