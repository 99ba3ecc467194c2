import { afterEach, describe, expect, it, vi } from "vitest";
import { createToolValidator } from "./schema-validator.js";

afterEach(() => vi.restoreAllMocks());

describe("the gate's schema validator", () => {
  it("checks schemars' integer formats by type and prints no `unknown format` warning, interpreted or compiled", () => {
    const warn = vi.spyOn(console, "warn");
    const log = vi.spyOn(console, "log");
    const error = vi.spyOn(console, "error");
    const simple = { type: "object", properties: { n: { type: "integer", format: "uint64", minimum: 0 } } };
    // `if` is outside the interpreted subset, so this one goes through ajv.
    const compiled = { type: "object", properties: { n: { type: "integer", format: "uint32" } }, if: { required: ["n"] }, then: { required: ["n"] } };
    const v = createToolValidator([
      { name: "a", inputSchema: simple },
      { name: "b", inputSchema: compiled },
    ] as never);
    expect(v.check("a", "inputSchema", { n: 3 })).toEqual([]);
    expect(v.check("b", "inputSchema", { n: 3 })).toEqual([]);
    expect(v.check("b", "inputSchema", { n: "x" })!.map((p) => p.path)).toEqual(["$.n"]);
    expect([...warn.mock.calls, ...log.mock.calls, ...error.mock.calls].flat().join("\n")).not.toMatch(/unknown format/);
  });
});
