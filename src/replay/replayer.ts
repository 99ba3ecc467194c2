import { daemonTimedOutAfter } from "#src/driver/messages.js";
import type { CallOptions, Clock, Reply, ToolInfo } from "#src/driver/port.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry, SummaryEntry } from "#src/schema/replay-log.js";
import { READ_ONLY_TOOLS_0_21 } from "#src/driver/catalogue.js";
import type { Driver } from "#src/driver/port.js";
import { answerInprocess } from "./engine/answer-inprocess.js";
import type { Engine } from "./engine/engine.js";
import type { MatchMode } from "./engine/matcher.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import type { ReplaySpeed } from "./recorded-timing.js";
import type { PreparedReplayCassette, ReplayCassette } from "./cassette-source.js";
import { createReplaySession } from "./session.js";

export { engineSource, prepareReplayCassette, type PreparedReplayCassette, type ReplayCassette } from "./cassette-source.js";

/** What the in-process replayer serves: the cassette, faults, seed, matching and clock. */
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

/** The replayer's summary: the replay log's closing line. */
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
  /** The harness looked at the world by its own means: a fresh observation to the invariants. */
  observe(note?: string): void;
}

/**
 * Build the in-process replayer (docs/replay.md): a replay session (the one the CLI, MCP and HTTP
 * transports share) answered through the Driver port.
 */
export function createReplayer(options: ReplayerOptions): Replayer {
  const session = createReplaySession({
    cassette: options.cassette,
    clock: options.clock ?? createVirtualClock(),
    // a virtual clock's delays are exact: in-process logs keep the clock's fractional milliseconds
    exactTimes: true,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.speed ? { speed: options.speed } : {}),
    ...(options.onEntry ? { onEntry: options.onEntry } : {}),
  });
  const { engine, clock } = session;

  return {
    engine,
    async call(tool: string, args: Record<string, unknown>, callOptions: CallOptions = {}): Promise<Reply> {
      const decision = session.decide({ transport: "inprocess", method: "call", tool, args });
      const tMs = session.t();
      const answer = answerInprocess(decision);
      const delayMs = answer.type === "reply" ? answer.delayMs + session.speedDelayMs(decision) : 0;
      const timeout = callOptions.timeoutMs;
      let reply: Reply;
      let served: string | undefined;
      if (answer.type === "hang") {
        const waited = timeout ?? answer.afterMs;
        await clock.sleep(waited);
        reply = {
          kind: "timeout",
          tool,
          message: timeout !== undefined ? `no answer within ${timeout} ms` : daemonTimedOutAfter(answer.afterMs / 1000),
        };
      } else if (timeout !== undefined && delayMs > timeout) {
        await clock.sleep(timeout);
        reply = { kind: "timeout", tool, message: `no answer within ${timeout} ms` };
      } else {
        if (delayMs > 0) await clock.sleep(delayMs);
        reply = answer.reply;
        served = answer.served;
      }
      session.record(decision, { tMs, ...(served !== undefined ? { served } : {}) });
      return reply;
    },
    async listTools(): Promise<ToolInfo[]> {
      if (engine.tools) return [...engine.tools];
      const names = [...new Set(engine.exchanges.filter((x) => x.request.method === "call" && x.request.tool).map((x) => x.request.tool!))];
      return names.sort().map((name) => ({ name, annotations: { readOnlyHint: READ_ONLY_TOOLS_0_21.has(name) } }));
    },
    log: () => session.entries(),
    summary: () => ({ ...engine.summary(session.t()), epoch: engine.epoch }),
    mark: (label, data) => session.mark(label, data),
    observe: (note) => session.observe(note),
  };
}
