import type { FrameExt } from "#src/cassette/frame-ref.js";
import type { Redactor } from "#src/cassette/redact.js";
import type { FrameRef } from "#src/schema/bytes.js";
import type { CassetteEvent, McpLineEvent } from "#src/schema/cassette.js";
import { REFUSAL } from "#src/driver/refusals.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { endsEpoch, type RecordedExchange } from "#src/replay/engine/exchanges.js";
import { createExchangeReader } from "#src/cassette/exchanges/index.js";
import { isLifecycleTool } from "#src/replay/engine/session-lifecycle.js";
import type { ReplaySession } from "#src/replay/session.js";
import type { ReplayRequest } from "#src/replay/engine/request.js";
import type { Growth } from "./growth.js";
import type { IdTable } from "./id-table.js";
import type { LiveDriver } from "./live-driver.js";
import { pairAnswers } from "./pair-answers.js";
import type { CallOutcome } from "./call-outcome.js";
import { describeOutcome, outcomesDiffer } from "./call-outcome.js";

export interface RecordMissingCounts {
  /** Requests answered from the cassette. */
  served: number;
  /** Requests answered by the live driver and added to the cassette. */
  added: number;
  /** Requests sent to the live driver (answered from the cassette or not). */
  forwarded: number;
}

/**
 * What every transport of one record-missing run shares (docs/decisions/0170): the replay session
 * (the recorded answers and the replay's own driver model), the live driver, the id table, the
 * growth plan, and one order for all of it.
 */
export interface RecordMissingCore {
  readonly session: ReplaySession;
  readonly live: LiveDriver;
  readonly table: IdTable;
  readonly growth: Growth;
  readonly redactor: Redactor;
  putFrame(bytes: Uint8Array, ext: FrameExt): FrameRef;
  /** Provenance of the added events. */
  readonly added: NonNullable<CassetteEvent["added"]>;
  readonly counts: RecordMissingCounts;
  readonly notes: string[];
  readonly divergence: { n: number; reason: string } | undefined;
  /**
   * What the cassette has for one request here: a miss once the run has left the recorded history
   * (no decision), or the decision and its step; a mutation it lacks starts another history.
   */
  decide(request: ReplayRequest): Decided;
  /** Runs one request's handling after every earlier one (the table, the plan and the live desktop follow one order). */
  serialize<T>(fn: () => Promise<T>): Promise<T>;
  /** Position in the old file of the recorded mutation that ends this epoch, if any. */
  epochEnd(epoch: number): number | undefined;
  /** From here on the run is another history (the first call counts). */
  diverge(n: number, reason: string, end: number | undefined): void;
  /** A recorded exchange answered the run in its own epoch: what is added next goes after it (after its answer, for MCP). */
  served(exchange: RecordedExchange | undefined, epoch: number): void;
  /** The recorded and the live answer to one request (JSON texts) teach the id table; where the desktops differ is noted. */
  learn(label: string, recorded: string, live: string): void;
  /**
   * A mutation both answered: the live outcome against the recorded one. `diverge` when the
   * recording's later states cannot be this run's (the caller answers live from there), else undefined.
   */
  compare(o: { decision: Decision; step: Step; label: string; recorded: CallOutcome; live: CallOutcome; end: number | undefined }): "diverge" | undefined;
}

/** A request decided under record-missing: `label` names it in notes, `end` is its epoch's end in the old file. */
export type Decided = { step: "missing"; decision?: Decision } | { step: Exclude<Step, "missing">; decision: Decision; label: string; end: number | undefined };

/**
 * `recorded`: a recorded answer (sent live too); `synthesized`: the replay's own answer for a
 * session start or end (sent live, so the live session is there); `local`: a rule the replay
 * applies without the driver (an ended session, an unknown tool, a token no longer honoured: the
 * driver would refuse it too, and the live desktop must not get an input the harness saw refused);
 * `missing`: nothing recorded answers it in this epoch (a read from an earlier epoch is not the
 * truth here, and a mutation sent again is a mutation the recording never made).
 */
export type Step = "recorded" | "synthesized" | "local" | "missing";

export function classify(d: Decision): Step {
  if (d.outcome === "unmatched" || d.fallbackEpoch !== undefined) return "missing";
  if (d.synthetic) return "local";
  const kind = d.offPath?.synthesized;
  if (kind === REFUSAL.stale_element_token) return "local";
  if (kind === "resent_mutation" || kind === "skipped_ahead") return "missing";
  if (kind === "lifecycle" || d.exchange?.virtual) return "synthesized";
  return "recorded";
}

/** A mutation that ends its epoch (session starts and ends do not). */
export const endsItsEpoch = (d: Decision): boolean => d.kind === "mutation" && !isLifecycleTool(d.request.tool);

export function createRecordMissingCore(options: {
  session: ReplaySession;
  live: LiveDriver;
  table: IdTable;
  growth: Growth;
  /** The cassette's events, in file order. */
  events: readonly CassetteEvent[];
  redactor: Redactor;
  putFrame: (bytes: Uint8Array, ext: FrameExt) => FrameRef;
  added: NonNullable<CassetteEvent["added"]>;
}): RecordMissingCore {
  const { session, growth, table } = options;
  const position = new Map(options.events.map((e, i) => [e.seq, i]));
  const answerAt = answerPositions(options.events);
  const counts: RecordMissingCounts = { served: 0, added: 0, forwarded: 0 };
  const notes: string[] = [];
  let divergence: { n: number; reason: string } | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const core: RecordMissingCore = {
    session,
    live: options.live,
    table,
    growth,
    redactor: options.redactor,
    putFrame: options.putFrame,
    added: options.added,
    counts,
    notes,
    get divergence() {
      return divergence;
    },
    serialize(fn) {
      const next = chain.then(fn);
      chain = next.catch(() => undefined);
      return next;
    },
    epochEnd(epoch) {
      const x = session.engine.exchanges.find((e) => e.epoch === epoch && endsEpoch(e));
      return x ? position.get(x.seq) : undefined;
    },
    decide(request) {
      if (growth.diverged) return { step: "missing" };
      const end = core.epochEnd(session.engine.epoch);
      const decision = session.decide(request);
      const step = classify(decision);
      const label = `#${decision.n} ${request.tool ?? request.method}`;
      if (step !== "missing") return { step, decision, label, end };
      if (endsItsEpoch(decision)) core.diverge(decision.n, `${label} is a mutation the cassette does not have here`, end);
      return { step, decision };
    },
    diverge(n, reason, end) {
      if (growth.diverged) return;
      growth.diverge(end);
      divergence = { n, reason };
    },
    served(x, epoch) {
      if (!x || x.virtual || x.epoch !== epoch) return;
      const at = answerAt.get(x.seq) ?? position.get(x.seq);
      if (at !== undefined) growth.served(at);
    },
    learn(label, recorded, live) {
      // the recorded answer is stored redacted: the live one is compared the same way (typed text in a tree is no difference)
      const paired = pairAnswers(recorded, options.redactor.text(live));
      for (const p of paired.pairs) table.pair(p.kind, p.recorded, p.live);
      for (const d of paired.differences) notes.push(`${label}: ${d}`);
    },
    compare(o) {
      const differ = outcomesDiffer(o.recorded, o.live);
      if (differ && endsItsEpoch(o.decision) && o.step === "recorded") {
        core.diverge(o.decision.n, `${o.label}: the live driver ${describeOutcome(o.live)} where the cassette says ${describeOutcome(o.recorded)}`, o.end);
        return "diverge";
      }
      if (differ || o.recorded.effect !== o.live.effect)
        notes.push(`${o.label}: the live driver ${describeOutcome(o.live)}, the answer served ${describeOutcome(o.recorded)}`);
      return undefined;
    },
  };
  return core;
}

/** Position of the answer line of each recorded MCP request (by the request's seq), paired by the exchange reader the replay reads with. */
function answerPositions(events: readonly CassetteEvent[]): Map<number, number> {
  const out = new Map<number, number>();
  const reader = createExchangeReader<number>(
    {
      answer(x) {
        if (x.answer) out.set(x.request.event.seq, x.answer.place);
      },
    },
    // a line stored as base64 pairs with nothing, as the replay reads it
    { text: (e, field) => (field === "line" && typeof (e as McpLineEvent).line === "string" ? ((e as McpLineEvent).line as string) : "") },
  );
  for (const [i, e] of events.entries()) reader.add(e, i);
  return out;
}
