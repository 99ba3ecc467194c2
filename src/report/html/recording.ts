import type { CassetteEvent } from "#src/schema/cassette.js";
import { assignEpochs, createExchangeBuilder, type RecordedExchange } from "#src/replay/engine/exchanges.js";
import { frameMarker } from "./frame-markers.js";

/**
 * A recording as the report reads it: the exchanges with epochs (answers, with frames as markers,
 * in memory or read from cassette.jsonl when a row is built), each event's time, and the frames the
 * events name in order (inline images, then written files), each once.
 */
export interface ReportRecording {
  /** How many exchanges, and how many of them are mutations. */
  readonly count: number;
  readonly mutations: number;
  /**
   * The exchanges from `start` to `end` (not included), with their epochs: held in memory, or built
   * again from their events when asked (a cassette read line by line keeps none).
   */
  exchangesAt(start: number, end: number): readonly RecordedExchange[];
  /** Each event's time by its seq. */
  readonly tMs: { get(seq: number): number | undefined };
  readonly frameRefs: readonly string[];
}

/** Notes each event's time and the frames it names, in order. */
export function recordingCollector() {
  // by seq, which counts from 0: an array of doubles is a tenth of a Map's memory at 100 000 events
  const times: number[] = [];
  const tMs = { get: (seq: number): number | undefined => times[seq] };
  const frameRefs = new Set<string>();
  return {
    tMs,
    frameRefs,
    note(event: CassetteEvent) {
      times[event.seq] = event.t_ms;
      if ("frames" in event) for (const f of event.frames ?? []) frameRefs.add(f.ref);
      if ("files" in event) for (const f of Object.values(event.files ?? {})) frameRefs.add(f.ref);
    },
  };
}

/** The recording of events already in memory. */
export function recordingOfEvents(events: readonly CassetteEvent[]): ReportRecording {
  const builder = createExchangeBuilder({ frame: frameMarker });
  const seen = recordingCollector();
  for (const event of events) {
    seen.note(event);
    builder.add(event);
  }
  assignEpochs(builder.exchanges);
  return recordingOf(builder.exchanges, seen);
}

/** A recording whose exchanges are held. */
export function recordingOf(exchanges: readonly RecordedExchange[], seen: ReturnType<typeof recordingCollector>): ReportRecording {
  return {
    count: exchanges.length,
    mutations: exchanges.filter((x) => x.kind === "mutation").length,
    exchangesAt: (start, end) => exchanges.slice(start, end),
    tMs: seen.tMs,
    frameRefs: [...seen.frameRefs],
  };
}
