import type { SynthesisBasis, SynthesizedKind } from "#src/schema/replay-log.js";
import { resultLine } from "#src/transports/mcp/wire/envelope.js";
import type { RecordedExchange } from "./exchanges.js";
import { matchKey, type KeyOptions } from "./match-key.js";
import type { Matcher } from "./matcher.js";
import { derivedFrom, type KeyIndex } from "./derived.js";
import type { ReplayRequest } from "./request.js";

/**
 * The driver state model for requests the recording never saw in this state (docs/matching.md, "Off the
 * recorded path"): a fault sends a correct harness where the live run never went — a rebuild, a
 * re-read, the next action sent although an earlier one did not take effect — and these rules answer
 * it from what is known, each answer logged with its basis.
 */
export interface OffPathAnswer {
  /** What is served (a recorded exchange, or one built by the replay: `virtual`). */
  exchange: RecordedExchange;
  synthesized: SynthesizedKind;
  basis: SynthesisBasis;
  /** How the matcher moves: `normal` as recorded, `skip` past the ones before it, `none` not at all. */
  commit: "normal" | "skip" | "none";
}

const label = (x: RecordedExchange): string => `#${x.seq} ${x.request.method === "call" ? (x.request.tool ?? "?") : x.request.method}`;

/** A served answer the replay built itself, carried as an exchange so every transport renders it alike. */
export function virtualExchange(options: { request: ReplayRequest; kind: RecordedExchange["kind"]; epoch: number; raw: string }): RecordedExchange {
  return {
    seq: -1,
    transport: "mcp",
    request: options.request,
    kind: options.kind,
    epoch: options.epoch,
    origin: "harness",
    durationMs: 0,
    rpc: { response: resultLine("0", options.raw) },
    virtual: true,
  };
}

/**
 * How a recorded request relates to this one: `same` (the same match key), a sentence saying why it
 * is the same action although an argument differs (an element token from a newer look at the same
 * element), or undefined (another request).
 */
export type Equivalence = (recorded: RecordedExchange) => "same" | string | undefined;

/**
 * A mutation the current epoch does not expect: the expected one aimed through a fresher look at the
 * same element; a later recorded mutation reached because every recorded mutation before it was
 * tried in this replay and did not take effect, or — after a fault — was never sent; or one sent again after it was answered (the driver
 * runs it again; its recorded answer is served and nothing is consumed twice).
 */
export function offPathMutation(options: {
  matcher: Matcher;
  equivalent: Equivalence;
  /** seq → why: recorded mutations tried in this replay whose fault kept them from taking effect. */
  noEffect: ReadonlyMap<number, string>;
  /**
   * A fault has been injected in this replay: a fail-closed harness may then decline recorded
   * mutations it never sends (it looks again instead), so they too may be skipped.
   */
  afterFault: boolean;
  /**
   * The request and the key options: only recorded mutations that differ from it at most in the
   * element token can be equivalent, and they are found through an index instead of one by one.
   */
  like?: { request: ReplayRequest; keys: KeyOptions; index: KeyIndex };
}): OffPathAnswer | undefined {
  const { matcher, equivalent, noEffect, afterFault } = options;
  const why = (x: RecordedExchange) => noEffect.get(x.seq) ?? "was not sent in this replay";
  const { mutations, position } = matcher;
  // the places (ascending) of the mutations that may be equivalent; every other one is not
  const places = options.like
    ? (sameButTokenPlaces(mutations, options.like.keys, options.like.index).get(matchKey(options.like.request, withoutToken(options.like.keys))) ?? [])
    : undefined;
  // a pointer into the places, moved along with j
  let next = places === undefined ? 0 : firstAtOrAbove(places, position);
  const mayBe = (j: number) => {
    if (places === undefined) return true;
    while (next < places.length && places[next]! < j) next++;
    return places[next] === j;
  };
  // forward: the mutations a recorded one may be reached over (tried without effect, or declined after a fault)
  const last = places === undefined ? mutations.length - 1 : (places.at(-1) ?? -1);
  for (let j = position; j <= last && j < mutations.length; j++) {
    const x = mutations[j]!;
    const same = matcher.isConsumed(x) || !mayBe(j) ? undefined : equivalent(x);
    if (same !== undefined) {
      const aimed = same === "same" ? "" : `; ${same}`;
      if (j === position) {
        if (same === "same") return undefined; // the expected mutation: not off the path
        return {
          exchange: x,
          synthesized: "same_element",
          basis: { source: "cassette", seq: x.seq, detail: `the recorded ${label(x)}${aimed}` },
          commit: "normal",
        };
      }
      const skipped = mutations.slice(position, j);
      return {
        exchange: x,
        synthesized: "skipped_ahead",
        basis: {
          source: "cassette",
          seq: x.seq,
          detail: `the recorded ${label(x)} (epoch ${x.epoch})${aimed}; ${skipped.map((s) => `${label(s)} ${why(s)}`).join(", ")}, so the desktop is answered as recorded after ${label(x)}, which also shows the effect of what did not happen here`,
        },
        commit: "skip",
      };
    }
    if (!noEffect.has(x.seq) && !(afterFault && !matcher.isConsumed(x))) break;
  }
  // backward: a mutation answered already, sent again
  const before = Math.min(position, mutations.length);
  const back = places === undefined ? Array.from({ length: before }, (_, i) => before - 1 - i) : placesBefore(places, before);
  for (const j of back) {
    const x = mutations[j]!;
    const same = matcher.isConsumed(x) ? equivalent(x) : undefined;
    if (same !== undefined) {
      return {
        exchange: x,
        synthesized: "resent_mutation",
        basis: {
          source: "cassette",
          seq: x.seq,
          detail: `the same request as ${label(x)}${same === "same" ? "" : ` (${same})`}, answered already in epoch ${x.epoch}: the driver runs it again, so its recorded answer is served again and nothing is consumed (the desktop gets the input twice)`,
        },
        commit: "none",
      };
    }
  }
  return undefined;
}

/** The places below `before`, from the highest down. */
function* placesBefore(places: readonly number[], before: number): Generator<number> {
  for (let i = firstAtOrAbove(places, before) - 1; i >= 0; i--) yield places[i]!;
}

/** The index of the first place at or above `j` (binary search). */
function firstAtOrAbove(places: readonly number[], j: number): number {
  let lo = 0;
  let hi = places.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (places[mid]! < j) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const withoutToken = (keys: KeyOptions): KeyOptions => ({ ignore: [...keys.ignore, ["element_token"]] });

/** The recorded mutations' places by their match key without the element token (built once per key index). */
function sameButTokenPlaces(mutations: readonly RecordedExchange[], keys: KeyOptions, index: KeyIndex): Map<string, number[]> {
  return derivedFrom(index, "same-but-token", () => {
    const places = new Map<string, number[]>();
    const without = withoutToken(keys);
    mutations.forEach((x, j) => {
      const k = matchKey(x.request, without);
      const list = places.get(k);
      if (list) list.push(j);
      else places.set(k, [j]);
    });
    return places;
  });
}

/** Whether two match keys differ only in the element token (the rest of the request is the same). */
export function sameButToken(request: ReplayRequest, recorded: RecordedExchange, keys: KeyOptions): boolean {
  const without = withoutToken(keys);
  return matchKey(request, without) === matchKey(recorded.request, without);
}
