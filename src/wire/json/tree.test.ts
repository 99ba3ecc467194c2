import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalPretty } from "./canonical.js";
import { compareKeys, serdeString } from "./string.js";
import { parseSerdeJson, SerdeJsonError, serdeCompact, serdePretty } from "./tree.js";

const oracles = new URL("../../../test/fixtures/sdk-oracles/", import.meta.url);

describe("the serde_json tree", () => {
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
    expect(serdePretty(parseSerdeJson('{"a":[1,{"c":null,"b":true}]}'))).toBe('{\n  "a": [\n    1,\n    {\n      "b": true,\n      "c": null\n    }\n  ]\n}');
  });

  it("escapes only what serde_json escapes", () => {
    expect(serdeString('a"b\\c\n\u0001é/')).toBe('"a\\"b\\\\c\\n\\u0001é/"');
    expect(serdeCompact(parseSerdeJson('"\\u00e9\\/"'))).toBe('"é/"');
    // a lone surrogate, which JSON.stringify escapes, is written as it is (a Rust string cannot hold one)
    expect(serdeString("a\ud800")).toBe('"a\ud800"');
    expect(serdeString("😀\u007f\u2028")).toBe('"😀\u007f\u2028"');
  });

  it("orders keys as BTreeMap<String, _> does (UTF-8 bytes = code points)", () => {
    const keys = ["b", "a", "10", "2", "😀", "\uff5e", "Z", "é"];
    expect([...keys].sort(compareKeys)).toEqual(["10", "2", "Z", "a", "b", "é", "\uff5e", "😀"]);
    expect(serdeCompact(parseSerdeJson('{"😀":1,"\uff5e":2}'))).toBe('{"\uff5e":2,"😀":1}');
  });

  it("reports errors with serde's wording and position", () => {
    expect(() => parseSerdeJson("{a:1}")).toThrow(new SerdeJsonError("key must be a string", 1, 2));
    expect(() => parseSerdeJson('{"a":1')).toThrow("EOF while parsing an object at line 1 column 6");
    expect(() => parseSerdeJson("[1] x")).toThrow("trailing characters at line 1 column 5");
    expect(() => parseSerdeJson("nope")).toThrow("expected ident at line 1 column 2");
  });
});

describe("canonicalJson", () => {
  it("prints a JS value as serde_json's compact form, keys in BTreeMap order", () => {
    // JSON.stringify would put the integer-like keys first, in numeric order
    expect(canonicalJson({ b: [1, "x"], 10: true, 2: null, a: { d: 1, c: undefined } })).toBe('{"10":true,"2":null,"a":{"d":1},"b":[1,"x"]}');
    expect(canonicalJson([undefined, "é\n"])).toBe('[null,"é\\n"]');
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("pretty-prints a JS value as to_string_pretty does", () => {
    expect(canonicalPretty({ b: [], a: { y: null, x: "s" }, c: [1] })).toBe(
      '{\n  "a": {\n    "x": "s",\n    "y": null\n  },\n  "b": [],\n  "c": [\n    1\n  ]\n}',
    );
  });

  it("gives equal text for equal values built in any key order", () => {
    expect(canonicalJson({ x: 1, y: { b: 2, a: 1 } })).toBe(canonicalJson({ y: { a: 1, b: 2 }, x: 1 }));
  });

  it("matches what the tree prints for the same document", () => {
    const raw = readFileSync(new URL("captured/tools-list-0.21.0.json", oracles), "utf8");
    expect(canonicalJson(JSON.parse(raw))).toBe(serdeCompact(parseSerdeJson(raw)));
  });
});
