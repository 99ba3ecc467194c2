import type { SynthesisBasis } from "#src/schema/replay-log.js";
import type { RecordedExchange } from "./exchanges.js";

/**
 * After a `no_effect` fault (a mutation answered as delivered that changed nothing) the epoch
 * stays, so the reads that follow are answered from the looks recorded before the mutation. Each
 * such read is logged as synthesized (`unchanged_screen`) with its basis: the recorded look it
 * repeats, and the mutation that did not change it (docs/faults.md).
 */
export interface UnchangedScreen {
  /** A mutation under `no_effect` was answered as delivered at this epoch. */
  noted(options: { n: number; tool: string; epoch: number }): void;
  /** The basis for a read served at `epoch` from `exchange`, while the screen is still unchanged; else undefined. */
  basisFor(options: { epoch: number; exchange: RecordedExchange }): SynthesisBasis | undefined;
}

export function createUnchangedScreen(): UnchangedScreen {
  let last: { n: number; tool: string; epoch: number } | undefined;
  return {
    noted(options) {
      last = options;
    },
    basisFor({ epoch, exchange }) {
      if (!last) return undefined;
      if (last.epoch !== epoch) {
        // the epoch moved since: the screen changed after all
        last = undefined;
        return undefined;
      }
      return {
        source: "cassette",
        seq: exchange.seq,
        detail: `the look recorded before request #${last.n} (${last.tool}), which was answered as delivered under a no_effect fault and changed nothing`,
      };
    },
  };
}
