import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseSerdeJson, SerdeJsonError, serdeCompact, serdePretty, serdeString } from "./serde-json.js";

const oracles = new URL("../../../test/fixtures/sdk-oracles/", import.meta.url);

describe("serde-json", () => {
  it("re-emits a captured compact document byte for byte", () => {
    const raw = readFileSync(new URL("captured/tools-list-0.21.0.json", oracles), "utf8");
    expect(serdeCompact(parseSerdeJson(raw))).toBe(raw);
  });

  it("keeps float spelling and sorts keys by code point", () => {
    const node = parseSerdeJson('{"b":1.0,"a":[],"Z":{},"é":-0.5e3}');
    expect(serdeCompact(node)).toBe('{"Z":{},"a":[],"b":1.0,"é":-0.5e3}');
    expect(serdePretty(node)).toBe('{\n  "Z": {},\n  "a": [],\n  "b": 1.0,\n  "é": -0.5e3\n}');
  });

  it("pretty-prints nested arrays like to_string_pretty", () => {
    expect(serdePretty(parseSerdeJson('{"a":[1,{"c":null,"b":true}]}'))).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": true,\n      "c": null\n    }\n  ]\n}',
    );
  });

  it("escapes only what serde_json escapes", () => {
    expect(serdeString('a"b\\c\n\u0001é/')).toBe('"a\\"b\\\\c\\n\\u0001é/"');
    expect(serdeCompact(parseSerdeJson('"\\u00e9\\/"'))).toBe('"é/"');
  });

  it("reports errors with serde's wording and position", () => {
    expect(() => parseSerdeJson("{a:1}")).toThrow(new SerdeJsonError("key must be a string", 1, 2));
    expect(() => parseSerdeJson("{\"a\":1")).toThrow("EOF while parsing an object at line 1 column 6");
    expect(() => parseSerdeJson("[1] x")).toThrow("trailing characters at line 1 column 5");
    expect(() => parseSerdeJson("nope")).toThrow("expected ident at line 1 column 2");
  });
});
