import { describe, expect, it } from "vitest";
import { arrayItems, compactRaw, objectSpans, rawMember, removeMembers, setSortedMember } from "./spans.js";

describe("JSON text by spans", () => {
  it("compacts pretty text back to the same tokens, in the same order", () => {
    const pretty = '{\n  "b": 1.50,\n  "a": "x \\" y"\n}';
    expect(compactRaw(pretty)).toBe('{"b":1.50,"a":"x \\" y"}');
  });

  it("sets members in sorted position and removes them", () => {
    const t = '{"b":1,"d":2}';
    expect(setSortedMember(t, "c", "3")).toBe('{"b":1,"c":3,"d":2}');
    expect(setSortedMember(t, "a", "0")).toBe('{"a":0,"b":1,"d":2}');
    expect(setSortedMember(t, "e", "4")).toBe('{"b":1,"d":2,"e":4}');
    expect(setSortedMember(t, "d", '"x"')).toBe('{"b":1,"d":"x"}');
    expect(removeMembers('{"a":1,"b":2,"c":3}', ["b"])).toBe('{"a":1,"c":3}');
    expect(removeMembers('{"a":1,"b":2,"c":3}', ["c"])).toBe('{"a":1,"b":2}');
    expect(setSortedMember("{}", "a", "1")).toBe('{"a":1}');
  });

  it("inserts a member where serde's BTreeMap puts it: by code point, not by UTF-16 unit", () => {
    // U+FF5E < U+FFF0 < U+1F600 by code point; by UTF-16 unit U+FFF0 sorts after 😀 (0xD83D…)
    expect(setSortedMember('{"\uff5e":1,"😀":2}', "\ufff0", "3")).toBe('{"\uff5e":1,"\ufff0":3,"😀":2}');
  });

  it("finds top-level members and array items without parsing", () => {
    const text = '{"jsonrpc":"2.0","id":7,"result":{"x":[1,2]}}';
    expect([...objectSpans(text).keys()]).toEqual(["jsonrpc", "id", "result"]);
    expect(rawMember(text, "result")).toBe('{"x":[1,2]}');
    expect(arrayItems(' [1, "a,]", {"b":[2]} ]')).toEqual(["1", '"a,]"', '{"b":[2]}']);
  });
});
