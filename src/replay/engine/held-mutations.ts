import type { SelectedFault } from "../../faults/select.js";
import type { RecordedExchange } from "./exchanges.js";
import { matchKey, type KeyOptions } from "./match-key.js";
import type { ReplayRequest } from "./request.js";

/** A harness mutation that a recording fault kept from the driver (`record --faults`, `fault.forwarded: false`). */
export function isHeldMutation(x: RecordedExchange): boolean {
  return x.kind === "mutation" && x.origin === "harness" && x.fault?.forwarded === false;
}

export interface HeldMutations {
  /**
   * The recorded, not-forwarded mutation a replayed request with this fault stands for: the first
   * unconsumed one in `epoch` with the same key and the same fault (kind and rule). Taken once.
   */
  take(options: { request: ReplayRequest; epoch: number; fault: SelectedFault }): RecordedExchange | undefined;
  /** Seqs of those never taken. */
  untaken(): number[];
}

/**
 * Mutations a recording fault kept from the driver are not epoch-ending mutations (the desktop did
 * not change; `assignEpochs` does not end an epoch at them). A replay with the same plan selects the
 * same fault for the same request, and that request is answered by the held exchange, consumed
 * without advancing the epoch; the request sent anew after recovery then meets the real mutation
 * recorded after it (docs/decisions/0121-record-faults.md).
 */
export function createHeldMutations(options: { exchanges: readonly RecordedExchange[]; keys: KeyOptions }): HeldMutations {
  const held = options.exchanges.filter(isHeldMutation);
  const keyOf = new Map(held.map((x) => [x.seq, matchKey(x.request, options.keys)]));
  const taken = new Set<number>();
  return {
    take({ request, epoch, fault }) {
      if (held.length === 0) return undefined;
      const key = matchKey(request, options.keys);
      const x = held.find(
        (h) => !taken.has(h.seq) && h.epoch === epoch && keyOf.get(h.seq) === key && h.fault?.kind === fault.fault.kind && h.fault.rule === fault.rule,
      );
      if (x) taken.add(x.seq);
      return x;
    },
    untaken: () => held.filter((x) => !taken.has(x.seq)).map((x) => x.seq),
  };
}
