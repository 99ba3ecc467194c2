import { describe, expect, it } from "vitest";
import { parseShard, shardRuns } from "./shard.js";

describe("shards", () => {
  it("are disjoint and together cover every run", () => {
    for (const count of [1, 2, 3, 7]) {
      const all = Array.from({ length: count }, (_, i) => shardRuns(100, { index: i + 1, count })).flat();
      expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, k) => k));
    }
  });
  it("parses i/n and rejects a shard past the count", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(() => parseShard("3/2")).toThrow('--shard: bad shard "3/2". Write i/n with 1 ≤ i ≤ n');
    expect(() => parseShard("0/2")).toThrow(/bad shard/);
    expect(() => parseShard("two")).toThrow(/bad shard/);
  });
});
