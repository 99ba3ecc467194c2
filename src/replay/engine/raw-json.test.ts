import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { compactRaw, objectSpans, prettyRaw, rawMember, removeMembers, setSortedMember } from "./raw-json.js";
import { renderCliCall } from "./render-cli.js";
import { loadReplayCassette } from "../load.js";
import { createEngine } from "./engine.js";
import { resultFromCliStdout } from "./tool-result.js";

const MCP = path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk");
const CLI = path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk/cassette.jsonl");

describe("raw JSON text", () => {
  it("pretty-prints as serde_json does, keeping float formatting and key order", () => {
    expect(prettyRaw('{"height":800,"scale_factor":1.0,"width":1280}')).toBe('{\n  "height": 800,\n  "scale_factor": 1.0,\n  "width": 1280\n}');
    expect(prettyRaw('{"a":[],"b":{},"c":[1,{"d":"x,y:{"}]}')).toBe('{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    {\n      "d": "x,y:{"\n    }\n  ]\n}');
  });

  it("compacts pretty text back to the same tokens", () => {
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

  it("finds top-level members without parsing", () => {
    const spans = objectSpans('{"jsonrpc":"2.0","id":7,"result":{"x":[1,2]}}');
    expect([...spans.keys()]).toEqual(["jsonrpc", "id", "result"]);
    expect(rawMember('{"jsonrpc":"2.0","id":7,"result":{"x":[1,2]}}', "result")).toBe('{"x":[1,2]}');
  });
});

describe("CLI rendering of tool results (CONTRACT.md §0.1, §0.3)", () => {
  // The CLI fixture's stdout was reconstructed independently from the same captured results.
  const cliEvents = readFileSync(CLI, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l) as { argv: string[]; stdout: string });
  const cassette = loadReplayCassette(MCP);
  const { exchanges } = createEngine({ events: cassette.events, frame: cassette.frame! });
  const resultOf = (id: number) => {
    const line = exchanges.find((x) => x.rpc?.response?.startsWith(`{"jsonrpc":"2.0","id":${id},`))!.rpc!.response!;
    return rawMember(line, "result")!;
  };

  it("prints pretty structuredContent, byte for byte", () => {
    const size = cliEvents.find((e) => e.argv[1] === "get_screen_size")!;
    expect(renderCliCall({ raw: resultOf(9) }).stdout).toBe(size.stdout);
    const windows = cliEvents.find((e) => e.argv[1] === "list_windows")!;
    expect(renderCliCall({ raw: resultOf(3) }).stdout).toBe(windows.stdout);
    const refusal = cliEvents.find((e) => e.argv[1] === "press_key")!;
    expect(renderCliCall({ raw: resultOf(8) })).toMatchObject({ stdout: refusal.stdout, exitCode: 0 });
  });

  it("merges the last image as screenshot_png_b64, or writes it to the out-file", () => {
    const merged = renderCliCall({ raw: resultOf(10) });
    expect(merged.stdout).toMatch(/"screenshot_png_b64": "iVBORw0KGgo/);
    expect(merged.files).toEqual([]);
    const toFile = renderCliCall({ raw: resultOf(10), outFile: "/tmp/x.png" });
    expect(toFile.stdout).not.toContain("screenshot_png_b64");
    expect(toFile.files[0]?.path).toBe("/tmp/x.png");
    expect(Buffer.from(toFile.files[0]!.base64, "base64").subarray(1, 4).toString()).toBe("PNG");
    // zoom: JPEG merged under the PNG name, as the real CLI does
    expect(renderCliCall({ raw: resultOf(11) }).stdout).toMatch(/"screenshot_mime_type": "image\/jpeg",\n {2}"screenshot_png_b64": "\/9j\//);
  });

  it("rebuilds a result from CLI stdout and renders it back to the same bytes", () => {
    const size = cliEvents.find((e) => e.argv[1] === "get_screen_size")!;
    const raw = resultFromCliStdout({ stdout: size.stdout, tool: "get_screen_size" });
    expect(renderCliCall({ raw }).stdout).toBe(size.stdout);
  });
});
