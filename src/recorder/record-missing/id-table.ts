import { rewriteIds, type IdKind } from "./id-json.js";

/**
 * Recorded ↔ live identifiers for one record-missing run (docs/decisions/0170). The harness only
 * ever holds recorded ids (answers from the cassette) or ids translated into the recorded space
 * (answers from the live driver), so requests are translated to the live space on the way out and
 * live answers back into the recorded space on the way in.
 */
export interface IdTable {
  /** A recorded id and the live id of the same thing, learned from a recorded and a live answer to one request. */
  pair(kind: IdKind, recorded: string, live: string): void;
  /** A request's text with every id the table knows in its live value (unknown ids are sent as they are). */
  toLive(text: string): string;
  /**
   * A live answer's text in the recorded space: a live id the table knows gets its recorded value;
   * one it does not keeps its live value, or a fresh one when that value names something else in
   * the cassette, and the table remembers the choice. Ids mentioned in text are only translated.
   */
  toRecorded(text: string): string;
  /** The live value of a recorded id, when known. */
  live(kind: IdKind, recorded: string): string | undefined;
  /** The recorded value of a live id, when known. */
  recorded(kind: IdKind, live: string): string | undefined;
  /** Pairs learned so far, by kind (`fresh`: the live id was given a recorded value the cassette never used). */
  entries(): { kind: IdKind; recorded: string; live: string; fresh: boolean }[];
  /** Things worth telling the user (an id paired two ways). */
  readonly notes: readonly string[];
}

/** `taken`: every id value the cassette uses anywhere, which a live id the recording never had must not reuse. */
export function createIdTable(options: { taken: Record<IdKind, ReadonlySet<string>> }): IdTable {
  const kinds: IdKind[] = ["pid", "window", "snapshot"];
  const tables = Object.fromEntries(
    kinds.map((k) => [k, { r2l: new Map<string, string>(), l2r: new Map<string, string>(), taken: new Set(options.taken[k]), fresh: new Set<string>() }]),
  ) as Record<IdKind, { r2l: Map<string, string>; l2r: Map<string, string>; taken: Set<string>; fresh: Set<string> }>;
  const notes: string[] = [];

  const pair = (kind: IdKind, recorded: string, live: string) => {
    const t = tables[kind];
    const before = t.r2l.get(recorded);
    if (before === live) return;
    if (before !== undefined) {
      notes.push(`recorded ${kind} ${recorded} was live ${before}, now live ${live}: the newer pairing is used`);
      if (t.l2r.get(before) === recorded) t.l2r.delete(before);
    }
    t.r2l.set(recorded, live);
    // a live id named earlier under a value of its own now has the recording's name: answers use that
    t.l2r.set(live, recorded);
    t.taken.add(recorded);
  };

  const fresh = (kind: IdKind): string => {
    const t = tables[kind];
    if (kind === "snapshot") {
      let n = 0;
      for (const v of t.taken) n = Math.max(n, Number.parseInt(v.slice(1), 16));
      return `s${(n + 1).toString(16).padStart(8, "0")}`;
    }
    let n = 0;
    for (const v of t.taken) n = Math.max(n, Number(v));
    return String(n + 1);
  };

  const toRecordedId = (kind: IdKind, live: string, assign: boolean): string | undefined => {
    const t = tables[kind];
    const known = t.l2r.get(live);
    if (known !== undefined || !assign) return known;
    const value = t.taken.has(live) ? fresh(kind) : live;
    if (value !== live) t.fresh.add(value);
    t.r2l.set(value, live);
    t.l2r.set(live, value);
    t.taken.add(value);
    return value;
  };

  return {
    pair,
    toLive: (text) => rewriteIds(text, (kind, value) => tables[kind].r2l.get(value)),
    toRecorded: (text) => rewriteIds(text, (kind, value, where) => toRecordedId(kind, value, where === "key")),
    live: (kind, recorded) => tables[kind].r2l.get(recorded),
    recorded: (kind, live) => tables[kind].l2r.get(live),
    entries: () =>
      kinds.flatMap((kind) => [...tables[kind].r2l].map(([recorded, live]) => ({ kind, recorded, live, fresh: tables[kind].fresh.has(recorded) }))),
    notes,
  };
}
