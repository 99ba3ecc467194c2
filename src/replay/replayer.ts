import type { CallOptions, Clock, Driver, Reply, ToolInfo } from "../driver/port.js";
import type { CassetteEvent, CassetteHeader } from "../schema/cassette.js";
import type { FaultPlan } from "../schema/fault-plan.js";
import type { MarkEntry, ReplayLogEntry, SummaryEntry } from "../schema/replay-log.js";
import { READ_ONLY_TOOLS_0_21 } from "../driver/catalogue.js";
import { answerInprocess } from "./engine/answer-inprocess.js";
import { createEngine, type Engine, type EngineSource } from "./engine/engine.js";
import { prepareCassette, type PreparedCassette } from "./engine/prepared.js";
import type { FrameLookup } from "./engine/frames.js";
import type { MatchMode } from "./engine/matcher.js";
import { requestRedactor } from "./redact-request.js";
import { createVirtualClock } from "../driver/clock-virtual.js";
import { recordedDelayMs, type ReplaySpeed } from "./recorded-timing.js";

/**
 * A cassette for replay: its events and a way to read its frames. `loadReplayCassette` gives one
 * already prepared that reads its events only if `events` is asked for (a replay never does).
 */
export interface ReplayCassette {
  header?: CassetteHeader;
  events: readonly CassetteEvent[];
  /** Base64 of a frame by ref; needed when events cut images out into frames. */
  frame?: FrameLookup;
  /** Tool annotations from the cassette's probe.json, when it has one. */
  tools?: readonly ToolInfo[];
  /**
   * The probe's whole tools/list result; `runtimeInventory` when it is the published runtime's own
   * list (a probe with --driver sdk), which lacks the tools the binary registers itself.
   */
  toolsList?: { result: Record<string, unknown>; runtimeInventory: boolean };
}

/**
 * A cassette parsed into exchanges once, to be replayed many times (each fuzz run, each scenario
 * over it): `createReplayer` then builds no exchanges, epochs or match indexes of its own.
 */
export interface PreparedReplayCassette extends ReplayCassette {
  readonly prepared: PreparedCassette;
  /** The tool annotations the preparation used (a replayer given other tools prepares again: `prepared.withTools`). */
  readonly preparedTools: readonly ToolInfo[] | undefined;
}

export function prepareReplayCassette(
  cassette: ReplayCassette | PreparedReplayCassette,
  options: { tools?: readonly ToolInfo[] } = {},
): PreparedReplayCassette {
  const tools = options.tools ?? cassette.tools;
  if ("prepared" in cassette) {
    // already prepared (a cassette file read for replay keeps no events): only the annotations change
    return cassette.preparedTools === tools ? cassette : withPrepared(cassette, cassette.prepared.withTools(tools), tools);
  }
  const prepared = prepareCassette({ events: cassette.events, ...(cassette.frame ? { frame: cassette.frame } : {}), ...(tools ? { tools } : {}) });
  return { ...cassette, prepared, preparedTools: tools };
}

/** The cassette with another preparation; its accessors (events read on demand) are kept, not called. */
function withPrepared(cassette: PreparedReplayCassette, prepared: PreparedCassette, tools: readonly ToolInfo[] | undefined): PreparedReplayCassette {
  const copy = Object.create(Object.getPrototypeOf(cassette) as object, Object.getOwnPropertyDescriptors(cassette)) as PreparedReplayCassette;
  return Object.defineProperties(copy, { prepared: { value: prepared, enumerable: true }, preparedTools: { value: tools, enumerable: true } });
}

/** What an engine is built from: the preparation when it used these tools, else the same recording prepared with them. */
export function engineSource(cassette: ReplayCassette | PreparedReplayCassette, tools: readonly ToolInfo[] | undefined): EngineSource {
  if ("prepared" in cassette) return { prepared: cassette.preparedTools === tools ? cassette.prepared : cassette.prepared.withTools(tools) };
  return { events: cassette.events, ...(cassette.frame ? { frame: cassette.frame } : {}), ...(tools ? { tools } : {}) };
}

export interface ReplayerOptions {
  /** The cassette, as loaded (`loadReplayCassette`) or prepared once for many replays (`prepareReplayCassette`). */
  cassette: ReplayCassette | PreparedReplayCassette;
  faults?: FaultPlan;
  seed?: number;
  /** Defaults to a virtual clock: `delay` and `hang` resolve at once, in virtual time. */
  clock?: Clock;
  match?: MatchMode;
  ignore?: readonly string[];
  /** Tool annotations (e.g. from a probe); otherwise the recorded tools/list, else the 0.21 list. */
  tools?: readonly ToolInfo[];
  /** Called with every log entry as it is made (e.g. to stream a JSONL log). */
  onEntry?: (entry: ReplayLogEntry) => void;
  /** `recorded`: each answer takes the recorded call's duration (in the clock's time: virtual by default). */
  speed?: ReplaySpeed;
}

export interface ReplaySummary extends SummaryEntry {
  epoch: number;
}

/** The in-process cua-driver stand-in: a Driver answered from a cassette, with faults. */
export interface Replayer extends Driver {
  readonly engine: Engine;
  /** Every log entry so far (requests and marks). */
  log(): ReplayLogEntry[];
  /** Counts so far, and the recorded mutations never used. */
  summary(): ReplaySummary;
  /** Put a harness-side marker in the log (e.g. a batch boundary). */
  mark(label: string, data?: Record<string, unknown>): void;
}

/** Build the in-process replayer (docs/replay.md). Shares the engine with the CLI, MCP and HTTP transports. */
export function createReplayer(options: ReplayerOptions): Replayer {
  const clock = options.clock ?? createVirtualClock();
  const started = clock.now();
  const engine = createEngine({
    ...engineSource(options.cassette, options.tools ?? options.cassette.tools),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.cassette.header?.driver.version ? { driverVersion: options.cassette.header.driver.version } : {}),
  });
  const redact = requestRedactor(options.cassette.header);
  const entries: ReplayLogEntry[] = [];
  const push = (entry: ReplayLogEntry) => {
    entries.push(entry);
    options.onEntry?.(entry);
  };
  const t = () => Math.max(0, clock.now() - started);

  return {
    engine,
    async call(tool: string, args: Record<string, unknown>, callOptions: CallOptions = {}): Promise<Reply> {
      const decision = engine.decide(redact({ transport: "inprocess", method: "call", tool, args }));
      const tMs = t();
      const answer = answerInprocess(decision);
      const delayMs = answer.type === "reply" ? answer.delayMs + recordedDelayMs(decision, options.speed) : 0;
      const timeout = callOptions.timeoutMs;
      let reply: Reply;
      let served: string | undefined;
      if (answer.type === "hang") {
        const waited = timeout ?? answer.afterMs;
        await clock.sleep(waited);
        reply = {
          kind: "timeout",
          tool,
          message: timeout !== undefined ? `no answer within ${timeout} ms` : `timed out after ${answer.afterMs / 1000}s waiting for daemon response`,
        };
      } else if (timeout !== undefined && delayMs > timeout) {
        await clock.sleep(timeout);
        reply = { kind: "timeout", tool, message: `no answer within ${timeout} ms` };
      } else {
        if (delayMs > 0) await clock.sleep(delayMs);
        reply = answer.reply;
        served = answer.served;
      }
      push(engine.entry(decision, { tMs, durationMs: Math.max(0, t() - tMs), ...(served !== undefined ? { served } : {}) }));
      return reply;
    },
    async listTools(): Promise<ToolInfo[]> {
      if (engine.tools) return [...engine.tools];
      const names = [...new Set(engine.exchanges.filter((x) => x.request.method === "call" && x.request.tool).map((x) => x.request.tool!))];
      return names.sort().map((name) => ({ name, annotations: { readOnlyHint: READ_ONLY_TOOLS_0_21.has(name) } }));
    },
    log: () => [...entries],
    summary: () => ({ ...engine.summary(t()), epoch: engine.epoch }),
    mark(label, data) {
      const entry: MarkEntry = { type: "mark", t_ms: t(), label, ...(data ? { data } : {}) };
      push(entry);
    },
  };
}
