import type { Clock } from "./port.js";

/** A clock that never waits: `sleep` moves time forward at once, so delays and hangs are instantaneous. */
export interface VirtualClock extends Clock {
  advance(ms: number): void;
}

/** A clock whose time moves only when something sleeps: delays and hangs take no real time. */
export function createVirtualClock(start = 0): VirtualClock {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) return;
      now += ms;
      await Promise.resolve();
    },
  };
}
