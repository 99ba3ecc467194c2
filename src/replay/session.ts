import type { Clock } from "../driver/port.js";
import type { FaultPlan } from "../schema/fault-plan.js";
import type { ReplayLogEntry, ReplayTransport, RequestEntry, SummaryEntry } from "../schema/replay-log.js";
import type { ToolInfo } from "../driver/port.js";
import { createEngine, type Decision, type Engine } from "./engine/engine.js";
import type { FrameLookup } from "./engine/frames.js";
import type { MatchMode } from "./engine/matcher.js";
import { requestRedactor } from "./redact-request.js";
import type { ReplayCassette } from "./replayer.js";
import { recordedDelayMs, type ReplaySpeed } from "./recorded-timing.js";

export interface ReplaySessionOptions {
  cassette: ReplayCassette;
  /** Where the cassette came from, for messages (`recordings/login/cassette.jsonl`). */
  source?: string;
  faults?: FaultPlan;
  seed?: number;
  match?: MatchMode;
  ignore?: readonly string[];
  tools?: readonly ToolInfo[];
  clock: Clock;
  /** `recorded`: every answer waits as long as the recorded call took (docs/replay.md). */
  speed?: ReplaySpeed;
  onEntry?: (entry: ReplayLogEntry) => void;
  /** Called once per unmatched request with a one-line explanation (the CLI prints it loudly). */
  onUnmatched?: (message: string, decision: Decision) => void;
}

/** One replay run shared by every transport of a process (CLI shim, MCP streams, HTTP connections). */
export interface ReplaySession {
  readonly engine: Engine;
  readonly frame: FrameLookup | undefined;
  readonly clock: Clock;
  /** The recorded driver's version (from the cassette header), for synthesized answers. */
  readonly driverVersion: string;
  /** `cua-driver --version` output: recorded in the header, else built from its version, else unknown. */
  readonly versionOutput: string | undefined;
  /** Milliseconds since the session started. */
  t(): number;
  /** `fast` (default) or `recorded`. */
  readonly speed: ReplaySpeed;
  /** The wait the replay speed adds before this decision's answer (0 at the default speed). */
  speedDelayMs(decision: Decision): number;
  decide: Engine["decide"];
  synthesized: Engine["synthesized"];
  record(decision: Decision, extra: { tMs: number; served?: string; exitCode?: number | null }): RequestEntry;
  /** A new stream number (MCP process or HTTP connection), logged as opened. */
  openStream(transport: ReplayTransport): number;
  closeStream(transport: ReplayTransport, stream: number): void;
  entries(): ReplayLogEntry[];
  /** Append the summary entry (served, unmatched, faults, unused) to the log and return it. */
  finish(): SummaryEntry;
}

export function createReplaySession(options: ReplaySessionOptions): ReplaySession {
  const { clock } = options;
  const started = clock.now();
  const engine = createEngine({
    events: options.cassette.events,
    ...(options.cassette.frame ? { frame: options.cassette.frame } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...((options.tools ?? options.cassette.tools) ? { tools: options.tools ?? options.cassette.tools } : {}),
  });
  const log: ReplayLogEntry[] = [];
  const push = (entry: ReplayLogEntry) => {
    log.push(entry);
    options.onEntry?.(entry);
  };
  const t = () => Math.max(0, Math.round(clock.now() - started));
  let streams = 0;
  const redact = requestRedactor(options.cassette.header);
  const source = options.source ?? "the cassette";
  return {
    engine,
    frame: options.cassette.frame,
    clock,
    driverVersion: options.cassette.header?.driver.version ?? "0.21.0",
    versionOutput: options.cassette.header?.driver.version_output ?? (options.cassette.header?.driver.version ? `cua-driver ${options.cassette.header.driver.version}\n` : undefined),
    t,
    speed: options.speed ?? "fast",
    speedDelayMs: (decision) => recordedDelayMs(decision, options.speed),
    decide(request) {
      const decision = engine.decide(redact(request));
      if (decision.outcome === "unmatched") options.onUnmatched?.(unmatchedMessage(decision, source), decision);
      return decision;
    },
    synthesized: (request) => engine.synthesized(request),
    record(decision, extra) {
      const entry = engine.entry(decision, {
        tMs: extra.tMs,
        durationMs: Math.max(0, t() - extra.tMs),
        ...(extra.served !== undefined ? { served: extra.served } : {}),
        ...(extra.exitCode !== undefined ? { exitCode: extra.exitCode } : {}),
      });
      push(entry);
      return entry;
    },
    openStream(transport) {
      const stream = streams++;
      push({ type: "stream", event: "open", t_ms: t(), transport, stream });
      return stream;
    },
    closeStream(transport, stream) {
      push({ type: "stream", event: "close", t_ms: t(), transport, stream });
    },
    entries: () => [...log],
    finish() {
      const summary = engine.summary(t());
      push(summary);
      return summary;
    },
  };
}

/** `Failed to replay call #12 (click) from …: no recorded request matches (differs from #11 (click) at $.x: …). Fix…` */
export function unmatchedMessage(d: Decision, source: string): string {
  const what = d.request.method === "call" ? `call #${d.n} (${d.request.tool ?? "?"})` : `request #${d.n} (${d.request.method})`;
  const m = d.miss;
  const field = m?.path && m.path !== "$.tool" ? m.path.replace(/^\$\.?/, "") : undefined;
  const fix = field
    ? `Re-record the cassette with this harness, or ignore the field with --ignore ${field}.`
    : "Re-record the cassette with this harness.";
  return `Failed to replay ${what} from ${source}: no recorded request matches (${m?.reason ?? "unmatched"}). ${fix}`;
}
