import type { CassetteEvent } from "#src/schema/cassette.js";
import type { ToolInfo } from "#src/driver/port.js";
import { classifiedNames, KNOWN_TOOLS_0_21 } from "#src/driver/catalogue.js";
import { assignEpochs, buildExchanges, kindOf, type RecordedExchange } from "./exchanges.js";
import type { FrameLookup } from "./frames.js";
import type { KeyOptions } from "./match-key.js";
import { buildKeyIndex, type KeyIndex } from "./derived.js";
import { rawMember } from "#src/wire/json/spans.js";

export interface PrepareOptions {
  events: readonly CassetteEvent[];
  frame?: FrameLookup;
  /** Tool annotations (from a probe); otherwise taken from a recorded tools/list, else the 0.21 list. */
  tools?: readonly ToolInfo[];
}

/**
 * A cassette turned into what the engine matches against: exchanges with epochs, tool
 * annotations, the tool names the driver would authorize, and match-key indexes. Nothing in it
 * changes during a replay, so one preparation serves any number of engines (fuzz runs, scenarios).
 */
export interface PreparedCassette {
  readonly exchanges: readonly RecordedExchange[];
  readonly tools: readonly ToolInfo[] | undefined;
  /** Names the driver would authorize: its tool list plus names it classifies without listing, and any tool the cassette answered. */
  readonly classified: ReadonlySet<string>;
  /**
   * What the replay of this recording cannot do faithfully and says so (e.g. overlapping CLI calls
   * in a cassette that does not record the order they started in); the replay front prints them.
   */
  readonly notes: readonly string[];
  /** Exchanges by match key for these key options (built on first use, then shared). */
  keyIndex(keys: KeyOptions): KeyIndex;
  /**
   * The same recording prepared with other tool annotations (kinds, epochs and names again; the
   * answers, in memory or read on demand, are shared): what preparing its events with `tools` gives.
   */
  withTools(tools: readonly ToolInfo[] | undefined): PreparedCassette;
}

/** Tools from a recorded `tools/list` response, if the cassette has one. */
export function recordedTools(exchanges: readonly RecordedExchange[]): ToolInfo[] | undefined {
  for (const x of exchanges) {
    if (x.request.method !== "tools/list" || !x.rpc?.response) continue;
    try {
      const result = rawMember(x.rpc.response, "result");
      if (result) return (JSON.parse(result) as { tools: ToolInfo[] }).tools;
    } catch {
      // a broken tools/list answer is simply not used for annotations
    }
  }
  return undefined;
}

export function prepareCassette(options: PrepareOptions): PreparedCassette {
  const frame = options.frame ? { frame: options.frame } : {};
  // one pass over the events; kinds are set again when the tool list comes from the recording itself
  const exchanges = buildExchanges({ events: options.events, ...frame, ...(options.tools ? { tools: options.tools } : {}) });
  return preparedFrom(exchanges, options.tools);
}

/**
 * Epochs, tool annotations, authorized names and match indexes over exchanges built in one pass
 * (from events in memory, or from a cassette file scanned line by line). `tools` absent: the
 * recorded tools/list, else the 0.21 list; every kind is set from the list used. `listed`: the
 * names the driver lists when no tool list with annotations is at hand (`knownToolsOf`: a probe's or
 * recorded `list-tools` names, the catalogue's for the recording's version); default the 0.21 list.
 */
export function preparedFrom(exchanges: RecordedExchange[], given: readonly ToolInfo[] | undefined, fallback?: readonly string[]): PreparedCassette {
  const notes = inStartOrder(exchanges);
  const tools = given ?? recordedTools(exchanges);
  for (const x of exchanges) x.kind = kindOf(x.request, tools);
  assignEpochs(exchanges);
  const listed = tools ? tools.map((t) => t.name) : (fallback ?? KNOWN_TOOLS_0_21);
  const classified = new Set(classifiedNames(listed));
  for (const x of exchanges) if (x.request.method === "call" && x.request.tool) classified.add(x.request.tool);
  const indexes = new Map<string, KeyIndex>();
  return {
    exchanges,
    tools,
    classified,
    notes,
    keyIndex(keys) {
      const id = JSON.stringify(keys);
      let index = indexes.get(id);
      if (!index) {
        index = buildKeyIndex(exchanges, keys);
        indexes.set(id, index);
      }
      return index;
    },
    withTools(other) {
      // fresh objects (kinds and epochs are per preparation); requests and answers are shared, never changed
      const copies = exchanges.map((x) => ({ ...x }));
      return preparedFrom(copies, other, fallback);
    },
  };
}

/**
 * Per-call CLI events are written when a call finishes, so calls that overlapped stand in the order
 * they finished; a harness sends them in the order they started. The CLI exchanges that carry their
 * start order (`start_seq`) are put back in it, in the places they hold (the other transports'
 * exchanges, and CLI events without it, such as calls added later by `replay --record-missing`, stay
 * where they are). A cassette without `start_seq` keeps the order they finished in, and the note
 * says so when its calls overlapped (one written later started earlier, by `t_ms`).
 */
function inStartOrder(exchanges: RecordedExchange[]): string[] {
  const places: number[] = [];
  let latest = Number.NEGATIVE_INFINITY;
  let overlapped = 0;
  // only a per-call CLI exchange carries when it started (`startMs`) and its start order (`startSeq`)
  exchanges.forEach((x, i) => {
    if (x.startSeq !== undefined) places.push(i);
    else if (x.startMs !== undefined) {
      if (x.startMs < latest) overlapped++;
      latest = Math.max(latest, x.startMs);
    }
  });
  const started = places.map((i) => exchanges[i]!).sort((a, b) => a.startSeq! - b.startSeq!);
  places.forEach((place, k) => {
    exchanges[place] = started[k]!;
  });
  if (overlapped === 0) return [];
  return [
    `${overlapped} per-call CLI call(s) started before a call written ahead of them (the calls overlapped); the cassette does not record the order they started in (start_seq), so they are matched in the order they finished, which can give a call the answer of one that started after it. Re-record with this cua-contract to keep the start order.`,
  ];
}
