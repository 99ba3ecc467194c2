import { describe, expect, it } from "vitest";
import { createLru } from "./lru.js";

describe("createLru", () => {
  it("keeps the most recently used entries within the weight budget", () => {
    const lru = createLru<string, string>({ maxWeight: 10 });
    lru.set("a", "aaaa", 4);
    lru.set("b", "bbbb", 4);
    expect(lru.get("a")).toBe("aaaa"); // a is now the most recent
    lru.set("c", "cccc", 4); // 12 > 10: the least recent (b) goes
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("aaaa");
    expect(lru.get("c")).toBe("cccc");
    expect(lru.weight).toBe(8);
  });

  it("does not keep a value heavier than the whole budget, and bounds the entries", () => {
    const lru = createLru<number, number>({ maxWeight: 10, maxEntries: 2 });
    lru.set(1, 1, 11);
    expect(lru.size).toBe(0);
    lru.set(1, 1, 1);
    lru.set(2, 2, 1);
    lru.set(3, 3, 1);
    expect([lru.get(1), lru.get(2), lru.get(3)]).toEqual([undefined, 2, 3]);
  });

  it("through: loads once while cached", () => {
    const lru = createLru<string, number>({ maxWeight: 100 });
    let loads = 0;
    const load = () => ++loads;
    expect(lru.through("k", load, () => 1)).toBe(1);
    expect(lru.through("k", load, () => 1)).toBe(1);
    expect(loads).toBe(1);
  });
});
