import { versionText } from "#src/driver/binary-reference.js";
import { REFERENCE_DRIVER_VERSION } from "#src/driver/reference-version.js";
import type { Clock } from "#src/driver/port.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { MarkEntry, ObservationEntry, ReplayLogEntry, ReplayTransport, RequestEntry, SummaryEntry, SynthesizedAnswer } from "#src/schema/replay-log.js";
import type { ToolInfo } from "#src/driver/port.js";
import { createEngine, type Decision, type Engine } from "./engine/engine.js";
import type { FrameLookup } from "./engine/frames.js";
import type { RecordedDriver } from "./engine/static-answers.js";
import type { MatchMode } from "./engine/matcher.js";
import { requestRedactor } from "./redact-request.js";
import { engineSource, type PreparedReplayCassette, type ReplayCassette } from "./cassette-source.js";
import { recordedDelayMs, type ReplaySpeed } from "./recorded-timing.js";

/** What a replay session serves and where it logs. */
export interface ReplaySessionOptions {
  /** As loaded (`loadReplayCassette`: prepared once, answers read on demand) or events in memory. */
  cassette: ReplayCassette | PreparedReplayCassette;
  /** Where the cassette came from, for messages (`recordings/gtk3-demo-mcp/cassette.jsonl`). */
  source?: string;
  faults?: FaultPlan;
  seed?: number;
  match?: MatchMode;
  ignore?: readonly string[];
  tools?: readonly ToolInfo[];
  clock: Clock;
  /** `recorded`: every answer waits as long as the recorded call took (docs/replay.md). */
  speed?: ReplaySpeed;
  /** Log times as the clock gives them (a virtual clock's exact delays), not rounded to whole milliseconds. */
  exactTimes?: boolean;
  onEntry?: (entry: ReplayLogEntry) => void;
  /** Called once per unmatched request with a one-line explanation (the CLI prints it loudly). */
  onUnmatched?: (message: string, decision: Decision) => void;
  /**
   * Looks the harness declared since the last call (the lines of the `CUA_CONTRACT_OBSERVE` file):
   * read before every request is numbered, so each stands before the requests sent after it.
   */
  observations?: ObservationSource;
}

/** Where declared observations come from: each call hands over the ones declared since the last. */
export interface ObservationSource {
  drain(): readonly string[];
}

/** The longest note an observation keeps. */
const OBSERVATION_NOTE_MAX = 500;

/** One replay run shared by every transport of a process (CLI shim, MCP streams, HTTP connections). */
export interface ReplaySession {
  readonly engine: Engine;
  readonly frame: FrameLookup | undefined;
  readonly clock: Clock;
  /** The recorded driver's version (from the cassette header), for synthesized answers. */
  readonly driverVersion: string;
  /** `cua-driver --version` output: recorded in the header, else built from its version, else unknown. */
  readonly versionOutput: string | undefined;
  /** When the cassette was recorded (header `recorded_at`): the instant synthesized driver state is from. */
  readonly recordedAt: string | undefined;
  /** The probe's whole tools/list result, when the cassette has a probe. */
  readonly toolsList: ReplayCassette["toolsList"];
  /** All of the above, for answers the replay builds itself (check-update, mcp-config, tools/list…). */
  readonly driver: RecordedDriver;
  /** Milliseconds since the session started. */
  t(): number;
  /** `fast` (default) or `recorded`. */
  readonly speed: ReplaySpeed;
  /** The wait the replay speed adds before this decision's answer (0 at the default speed). */
  speedDelayMs(decision: Decision): number;
  decide: Engine["decide"];
  synthesized: Engine["synthesized"];
  unanswered: Engine["unanswered"];
  /** Log a decision; `synthesized` marks an answer built without a recorded exchange, with its basis. */
  record(decision: Decision, extra: { tMs: number; served?: string; exitCode?: number | null; synthesized?: SynthesizedAnswer }): RequestEntry;
  /** A new stream number (MCP process or HTTP connection), logged as opened. */
  openStream(transport: ReplayTransport): number;
  closeStream(transport: ReplayTransport, stream: number): void;
  /** Put a harness-side marker in the log (e.g. a batch boundary). */
  mark(label: string, data?: Record<string, unknown>): void;
  /** The harness looked at the world by its own means: counted as a fresh observation (docs/invariants.md). */
  observe(note?: string): void;
  entries(): ReplayLogEntry[];
  /** Append the summary entry (served, unmatched, faults, unused) to the log and return it. */
  finish(): SummaryEntry;
}

/** A replay session: the engine, the replay log and the streams the transports serve it on. */
export function createReplaySession(options: ReplaySessionOptions): ReplaySession {
  const { clock } = options;
  const started = clock.now();
  const engine = createEngine({
    ...engineSource(options.cassette, options.tools ?? options.cassette.tools),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.cassette.header?.driver.version ? { driverVersion: options.cassette.header.driver.version } : {}),
  });
  const log: ReplayLogEntry[] = [];
  const push = (entry: ReplayLogEntry) => {
    log.push(entry);
    options.onEntry?.(entry);
  };
  const t = options.exactTimes ? () => Math.max(0, clock.now() - started) : () => Math.max(0, Math.round(clock.now() - started));
  let streams = 0;
  /** Requests answered with a synthesized answer built outside the engine (logged with `extra.synthesized`). */
  let answeredBySession = 0;
  const redact = requestRedactor(options.cassette.header);
  const observe = (note?: string) => {
    const text = note?.trim();
    const entry: ObservationEntry = {
      type: "observation",
      t_ms: t(),
      before: engine.requests,
      source: "declared",
      ...(text ? { note: text.length > OBSERVATION_NOTE_MAX ? `${text.slice(0, OBSERVATION_NOTE_MAX - 1)}…` : text } : {}),
    };
    push(entry);
  };
  const drainObservations = () => {
    if (!options.observations) return;
    for (const line of options.observations.drain()) observe(line);
  };
  const source = options.source ?? "the cassette";
  const header = options.cassette.header;
  const driverVersion = header?.driver.version ?? REFERENCE_DRIVER_VERSION;
  const versionOutput = header?.driver.version_output ?? (header?.driver.version ? versionText(header.driver.version) : undefined);
  const driver: RecordedDriver = {
    version: driverVersion,
    ...(versionOutput !== undefined ? { versionOutput } : {}),
    ...(header?.recorded_at !== undefined ? { recordedAt: header.recorded_at } : {}),
    ...(options.cassette.toolsList ? { toolsList: options.cassette.toolsList } : {}),
  };
  return {
    engine,
    frame: options.cassette.frame,
    clock,
    driverVersion,
    versionOutput,
    recordedAt: header?.recorded_at,
    toolsList: options.cassette.toolsList,
    driver,
    t,
    speed: options.speed ?? "fast",
    speedDelayMs: (decision) => recordedDelayMs(decision, options.speed),
    decide(request) {
      drainObservations();
      const decision = engine.decide(redact(request), t());
      if (decision.outcome === "unmatched") options.onUnmatched?.(unmatchedMessage(decision, source), decision);
      return decision;
    },
    synthesized: (request) => {
      drainObservations();
      return engine.synthesized(request);
    },
    unanswered: (request) => {
      drainObservations();
      return engine.unanswered(redact(request));
    },
    record(decision, extra) {
      const logged = engine.entry(decision, {
        tMs: extra.tMs,
        durationMs: Math.max(0, t() - extra.tMs),
        ...(extra.served !== undefined ? { served: extra.served } : {}),
        ...(extra.exitCode !== undefined ? { exitCode: extra.exitCode } : {}),
      });
      if (extra.synthesized) answeredBySession++;
      const entry: RequestEntry = extra.synthesized ? { ...logged, synthesized: extra.synthesized.kind, basis: extra.synthesized.basis } : logged;
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
    mark(label, data) {
      const entry: MarkEntry = { type: "mark", t_ms: t(), label, ...(data ? { data } : {}) };
      push(entry);
    },
    observe,
    entries: () => [...log],
    finish() {
      drainObservations();
      const counted = engine.summary(t());
      // answers built at the transport (maintenance commands, an unrecorded initialize) count too
      const summary = { ...counted, synthesized: (counted.synthesized ?? 0) + answeredBySession };
      push(summary);
      return summary;
    },
  };
}

/**
 * `Failed to replay call #12 (click) from …: no recorded request matches (differs from #11 (click) at $.x: …).
 * Ignore the fields with --ignore x, or …`: the fix says to re-record only when re-recording would help.
 */
export function unmatchedMessage(d: Decision, source: string): string {
  const what = d.request.method === "call" ? `call #${d.n} (${d.request.tool ?? "?"})` : `request #${d.n} (${d.request.method})`;
  const m = d.miss;
  const ignore = m?.ignore && m.ignore.length > 0 ? m.ignore : undefined;
  const fixes: string[] = [];
  if (ignore) fixes.push(`ignore the field${ignore.length > 1 ? "s" : ""} with ${ignore.map((p) => `--ignore ${p}`).join(" ")}`);
  if (m?.afterFault) {
    fixes.push(
      `the fault at ${m.afterFault} took the harness where the recording never went, so re-recording the same flow cannot help: record the recovery path with \`record --faults PLAN\` (the same plan), or name the missing answer in the cassette`,
    );
  } else fixes.push("re-record the cassette with this harness");
  const fix = fixes.join(", or ");
  return `Failed to replay ${what} from ${source}: no recorded request matches (${m?.reason ?? "unmatched"}). ${fix[0]!.toUpperCase()}${fix.slice(1)}.`;
}
