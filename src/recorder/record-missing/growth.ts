import type { CassetteEventInput } from "#src/cassette/writer.js";
import type { CassetteEvent } from "#src/schema/cassette.js";

/** An event to add, without the seq and time it gets from where it goes. */
export type AddedInput = CassetteEventInput extends infer E ? (E extends unknown ? Omit<E, "t_ms"> : never) : never;

/** Where the added events go among the recorded ones, and which recorded ones the run left behind. */
export interface GrowthPlan {
  /** The new file order: a recorded event by its position in the old file, or an added one. */
  order: ({ old: number } | { added: CassetteEvent })[];
  added: CassetteEvent[];
  /** Recorded events of another history (after a divergence), left out of the grown cassette. */
  dropped: CassetteEvent[];
}

/**
 * The grown cassette being planned while a run goes (docs/decisions/0170). Each added call goes
 * where it happened: after the recorded event the run was last answered from in the current epoch
 * (at the start of the epoch when there is none yet), so the epochs of a plain replay stay the
 * ones this run went through. A mutation the recording did not make there (or that the live
 * driver answers otherwise now) starts another history: it goes at the end of the current epoch,
 * the recorded events from the mutation that ended that epoch on are left out, and everything the
 * run does after it follows it in order.
 */
export interface Growth {
  readonly diverged: boolean;
  /** The run was just answered from the recorded event at this position of the old file (current epoch). */
  served(position: number): void;
  /** Adds the events of one call at the run's place (an MCP request and its answer are one call). */
  add(events: readonly AddedInput[]): CassetteEvent[];
  /** From here on the run is another history; `end`: position of the recorded mutation that ended the current epoch (undefined: the last epoch). */
  diverge(end: number | undefined): void;
  plan(): GrowthPlan;
}

export function createGrowth(options: { events: readonly CassetteEvent[]; added?: CassetteEvent["added"] }): Growth {
  const { events } = options;
  let nextSeq = events.reduce((m, e) => Math.max(m, e.seq + 1), 0);
  // the identity calls the recorder made before the harness started stay first
  let cursor = -1;
  while (cursor + 1 < events.length && events[cursor + 1]!.origin === "recorder") cursor++;
  let cut: number | undefined;
  const inserts = new Map<number, CassetteEvent[]>();
  const added: CassetteEvent[] = [];
  return {
    get diverged() {
      return cut !== undefined;
    },
    served(position) {
      if (cut === undefined) cursor = Math.max(cursor, position);
    },
    add(list) {
      const t = cursor >= 0 ? events[cursor]!.t_ms : 0;
      const out = list.map((e) => ({ ...e, seq: nextSeq++, t_ms: t }) as CassetteEvent);
      const at = inserts.get(cursor) ?? [];
      at.push(...out);
      inserts.set(cursor, at);
      added.push(...out);
      return out;
    },
    diverge(end) {
      if (cut !== undefined) return;
      cut = end ?? events.length;
      cursor = Math.max(cursor, cut - 1);
    },
    plan() {
      const order: GrowthPlan["order"] = [];
      const kept = cut ?? events.length;
      for (const e of inserts.get(-1) ?? []) order.push({ added: e });
      for (let i = 0; i < kept; i++) {
        order.push({ old: i });
        for (const e of inserts.get(i) ?? []) order.push({ added: e });
      }
      const dropped = events.slice(kept);
      // an MCP stream whose recorded end was left out ends after the calls this run added to it
      const closes: CassetteEvent[] = [];
      const t = order.reduce((m, item) => Math.max(m, "old" in item ? events[item.old]!.t_ms : item.added.t_ms), 0);
      for (const e of dropped) {
        if (e.kind !== "mcp_close" || !events.slice(0, kept).some((k) => k.kind === "mcp_open" && k.stream === e.stream)) continue;
        closes.push({ ...e, seq: nextSeq++, t_ms: t, ...(options.added ? { added: options.added } : {}) });
      }
      for (const e of closes) order.push({ added: e });
      // a stream end (recorded, or added: a stream new to the cassette whose harness went away
      // mid-call) stays after every line this run added to that stream
      for (let i = order.length - 1; i >= 0; i--) {
        const item = order[i]!;
        const close = "old" in item ? events[item.old]! : item.added;
        if (close?.kind !== "mcp_close") continue;
        const last = order.findLastIndex((o) => "added" in o && o.added.kind === "mcp" && o.added.stream === close.stream);
        if (last > i) {
          order.splice(i, 1);
          order.splice(last, 0, item);
        }
      }
      return { order, added: [...added, ...closes], dropped };
    },
  };
}
