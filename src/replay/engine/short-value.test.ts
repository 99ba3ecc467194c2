import { describe, expect, it } from "vitest";
import { fnv1a, shortValue } from "./short-value.js";

describe("shortValue", () => {
  it("keeps short values whole and cuts long ones to a prefix, the length and a fingerprint", () => {
    expect(shortValue("s00000004:15")).toBe('"s00000004:15"');
    expect(shortValue(undefined)).toBe("(absent)");
    const long = "x".repeat(15_000_000);
    const shown = shortValue(long);
    expect(shown).toBe(`"${"x".repeat(59)}… (15000002 chars, fnv1a ${fnv1a(JSON.stringify(long))})`);
    expect(shown.length).toBeLessThan(120);
    expect(shortValue(`${long}y`)).not.toBe(shown);
  });

  it("fnv1a is the published FNV-1a 32-bit", () => {
    expect([fnv1a(""), fnv1a("a"), fnv1a("foobar")]).toEqual(["811c9dc5", "e40c292c", "bf9cf968"]);
  });
});
