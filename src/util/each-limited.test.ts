import { describe, expect, it } from "vitest";
import { eachLimited } from "./each-limited.js";

describe("eachLimited", () => {
  it("runs every item once, never more than the limit at a time, starting them in order", async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await eachLimited([5, 1, 4, 2, 3], 2, async (ms, i) => {
      started.push(i);
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
    });
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it("does nothing for no items, and runs one at a time below a limit of 1", async () => {
    await eachLimited([], 4, async () => {
      throw new Error("not called");
    });
    let running = 0;
    let most = 0;
    await eachLimited([1, 2, 3], 0, async () => {
      most = Math.max(most, ++running);
      await Promise.resolve();
      running--;
    });
    expect(most).toBe(1);
  });
});
