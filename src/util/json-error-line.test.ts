import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonErrorLine, jsonPathLine } from "./json-error-line.js";

describe("jsonErrorLine", () => {
  it("finds the line of errors JSON.parse gives no position for", () => {
    expect(jsonErrorLine('{\n  "scenarios": [\n,]}')).toBe(3);
    expect(jsonErrorLine('{\n  "a": 1,\n  "b": 2,\n}\n')).toBe(4);
    expect(jsonErrorLine('{\n  "a": tru\n}')).toBe(2);
    expect(jsonErrorLine('{\n  "a": "unterminated\n}')).toBe(2);
    expect(jsonErrorLine("not json\n")).toBe(1);
    expect(jsonErrorLine('{"a": 1}\n{"b": 2}\n')).toBe(2);
    expect(jsonErrorLine("")).toBe(1);
  });

  it("agrees with JSON.parse on every valid document", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (value, indent) => {
        expect(jsonErrorLine(JSON.stringify(value, null, indent))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("reports an error exactly when JSON.parse throws, on valid documents with one character inserted or deleted", () => {
    const mutated = fc
      .tuple(fc.jsonValue(), fc.constantFrom(undefined, 2), fc.nat(), fc.constantFrom("", ",", "}", "]", "{", "[", '"', ":", "x", "0", "-", ".", "\\"))
      .map(([value, indent, at, insert]) => {
        const text = JSON.stringify(value, null, indent);
        const i = at % (text.length + 1);
        return insert === "" ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + insert + text.slice(i);
      });
    fc.assert(
      fc.property(mutated, (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(jsonErrorLine(text) === undefined).toBe(parses);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("jsonPathLine", () => {
  const text = [
    "{",
    '  "tools": {',
    '    "click": {',
    '      "input": ["pid",',
    '        "x"],',
    '      "annotations": { "readOnlyHint": "yes" }',
    "    }",
    "  },",
    '  "a\\"b": 1',
    "}",
  ].join("\n");

  it("finds the line a field's value starts on, through objects, arrays and escaped keys", () => {
    expect(JSON.parse(text)).toBeTruthy();
    expect(jsonPathLine(text, ["tools", "click", "annotations", "readOnlyHint"])).toBe(6);
    expect(jsonPathLine(text, ["tools", "click", "input", 1])).toBe(5);
    expect(jsonPathLine(text, ['a"b'])).toBe(9);
    expect(jsonPathLine(text, [])).toBe(1);
  });

  it("for a missing key, names the line of the nearest object that lacks it", () => {
    expect(jsonPathLine(text, ["tools", "click", "output_schema"])).toBe(3);
    expect(jsonPathLine(text, ["driver"])).toBe(1);
  });
});
