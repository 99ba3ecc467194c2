import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../../test/helpers/run-cli.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createEngine } from "#src/replay/engine/engine.js";
import { rawMember } from "#src/wire/json/spans.js";
import { resultFromCliStdout } from "./stdout.js";
import { renderBuiltCall, renderCall, withImageBlock } from "./render-call.js";

const oracles = new URL("../../../../test/fixtures/sdk-oracles/", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, oracles), "utf8");

interface Example {
  argv: string;
  stdout_file: string;
  exit_code: number;
  source_result: string;
}
const examples = JSON.parse(read("call-examples/_index.json")) as Example[];

describe("renderCall against the cua-driver 0.21.0 call examples", () => {
  it.each(examples.map((e) => [e.stdout_file, e] as const))("%s", (_name, example) => {
    const raw = read(`captured/${example.source_result.split("/").pop()}`);
    const outFile = /--screenshot-out-file (\S+)/.exec(example.argv)?.[1];
    const rendered = renderCall({ raw, ...(outFile !== undefined ? { outFile } : {}) });
    expect(rendered.stdout).toBe(read(`call-examples/${example.stdout_file}`));
    expect(rendered.exitCode).toBe(example.exit_code);
    if (outFile) expect(rendered.files.length).toBeGreaterThan(0);
  });

  it("merges the last image and writes every image to the out-file", () => {
    const raw =
      '{"content":[{"data":"QQ==","mimeType":"image/png","type":"image"},{"data":"Qg==","mimeType":"image/jpeg","type":"image"}],"structuredContent":{"z":1}}';
    expect(renderCall({ raw }).stdout).toBe('{\n  "screenshot_mime_type": "image/jpeg",\n  "screenshot_png_b64": "Qg==",\n  "z": 1\n}\n');
    expect(renderCall({ raw, outFile: "/x.png" })).toEqual({
      stdout: '{\n  "z": 1\n}\n',
      stderr: "",
      files: [
        { path: "/x.png", base64: "QQ==" },
        { path: "/x.png", base64: "Qg==" },
      ],
      exitCode: 0,
    });
  });

  it("prints every text block when there is no structuredContent, even for isError", () => {
    const raw = '{"content":[{"text":"one","type":"text"},{"text":"two","type":"text"}],"isError":true}';
    expect(renderCall({ raw })).toEqual({ stdout: "one\ntwo\n", stderr: "", files: [], exitCode: 0 });
  });
});

// Where the replay's and the sdk backend's renderers used to disagree; each answer is what
// cli.rs:2274-2358 does (docs/discoveries/cli-call-stdout.md).
describe("renderCall where two renderers used to disagree", () => {
  it("prints `null` for structuredContent: null (result.get is Some(Null)), not the text", () => {
    expect(renderCall({ raw: '{"content":[{"text":"hi","type":"text"}],"structuredContent":null}' }).stdout).toBe("null\n");
  });

  it("prints a structuredContent that is not an object as it is, with no image merged", () => {
    const raw = '{"content":[{"data":"QQ==","type":"image"},{"text":"hi","type":"text"}],"structuredContent":[2,1]}';
    expect(renderCall({ raw }).stdout).toBe("[\n  2,\n  1\n]\n");
  });

  it("sorts keys a hand-made result left unsorted, and keeps the last of duplicate keys", () => {
    const raw = '{"content":[],"structuredContent":{"b":1,"a":{"d":true,"c":null},"b":2}}';
    expect(renderCall({ raw }).stdout).toBe('{\n  "a": {\n    "c": null,\n    "d": true\n  },\n  "b": 2\n}\n');
  });

  it("prints keys in BTreeMap order: by code point, not by UTF-16 unit", () => {
    // "\uFF5E" (a BMP character) sorts before "😀" (U+1F600) by code point, after it by UTF-16 unit
    const raw = '{"content":[{"data":"QQ==","type":"image"}],"structuredContent":{"😀":2,"\uff5e":1}}';
    expect(renderCall({ raw }).stdout).toBe('{\n  "screenshot_mime_type": "image/png",\n  "screenshot_png_b64": "QQ==",\n  "\uff5e": 1,\n  "😀": 2\n}\n');
  });

  it("skips an image block without string data, and takes image/png for a mime type that is not a string", () => {
    const raw = '{"content":[{"data":"QQ==","mimeType":7,"type":"image"},{"type":"image"},{"data":1,"type":"image"}],"structuredContent":{}}';
    expect(renderCall({ raw }).stdout).toBe('{\n  "screenshot_mime_type": "image/png",\n  "screenshot_png_b64": "QQ=="\n}\n');
    expect(renderCall({ raw, outFile: "o.png" }).files).toEqual([{ path: "o.png", base64: "QQ==" }]);
  });

  it("skips a text block without string text, and a content that is not an array", () => {
    expect(renderCall({ raw: '{"content":[{"type":"text"},{"text":5,"type":"text"},{"text":"ok","type":"text"}]}' }).stdout).toBe("ok\n");
    expect(renderCall({ raw: '{"content":{"text":"x","type":"text"}}' }).stdout).toBe("");
  });

  it("re-escapes strings as serde_json writes them", () => {
    expect(renderCall({ raw: '{"structuredContent":{"s":"\\u00e9\\/"}}' }).stdout).toBe('{\n  "s": "é/"\n}\n');
  });
});

describe("renderCall on recorded MCP results, against the CLI recording of the same flow", () => {
  // The CLI fixture's stdout was reconstructed independently from the same captured results.
  const MCP = path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk");
  const CLI = path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk/cassette.jsonl");
  const cliEvents = readFileSync(CLI, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { argv: string[]; stdout: string });
  const cassette = loadReplayCassette(MCP);
  const { exchanges } = createEngine({ events: cassette.events, frame: cassette.frame! });
  const resultOf = (id: number) => {
    const line = exchanges.find((x) => x.rpc?.response?.startsWith(`{"jsonrpc":"2.0","id":${id},`))!.rpc!.response!;
    return rawMember(line, "result")!;
  };

  it("prints pretty structuredContent, byte for byte", () => {
    const size = cliEvents.find((e) => e.argv[1] === "get_screen_size")!;
    expect(renderCall({ raw: resultOf(9) }).stdout).toBe(size.stdout);
    const windows = cliEvents.find((e) => e.argv[1] === "list_windows")!;
    expect(renderCall({ raw: resultOf(3) }).stdout).toBe(windows.stdout);
    const refusal = cliEvents.find((e) => e.argv[1] === "press_key")!;
    expect(renderCall({ raw: resultOf(8) })).toMatchObject({ stdout: refusal.stdout, exitCode: 0 });
  });

  it("merges the last image as screenshot_png_b64, or writes it to the out-file", () => {
    const merged = renderCall({ raw: resultOf(10) });
    expect(merged.stdout).toMatch(/"screenshot_png_b64": "iVBORw0KGgo/);
    expect(merged.files).toEqual([]);
    const toFile = renderCall({ raw: resultOf(10), outFile: "/tmp/x.png" });
    expect(toFile.stdout).not.toContain("screenshot_png_b64");
    expect(toFile.files[0]?.path).toBe("/tmp/x.png");
    expect(Buffer.from(toFile.files[0]!.base64, "base64").subarray(1, 4).toString()).toBe("PNG");
    // zoom: JPEG merged under the PNG name, as the real CLI does
    expect(renderCall({ raw: resultOf(11) }).stdout).toMatch(/"screenshot_mime_type": "image\/jpeg",\n {2}"screenshot_png_b64": "\/9j\//);
  });

  it("rebuilds a result from CLI stdout and renders it back to the same bytes", () => {
    const size = cliEvents.find((e) => e.argv[1] === "get_screen_size")!;
    const raw = resultFromCliStdout({ stdout: size.stdout, tool: "get_screen_size" });
    expect(renderCall({ raw }).stdout).toBe(size.stdout);
  });

  it("merges an image appended as a block (a recorded out-file asked for inline)", () => {
    const raw = withImageBlock('{"content":[],"structuredContent":{"a":1}}', "QQ==", "image/jpeg");
    expect(raw).toBe('{"content":[{"data":"QQ==","mimeType":"image/jpeg","type":"image"}],"structuredContent":{"a":1}}');
    expect(renderCall({ raw }).stdout).toBe('{\n  "a": 1,\n  "screenshot_mime_type": "image/jpeg",\n  "screenshot_png_b64": "QQ=="\n}\n');
  });
});

describe("renderBuiltCall", () => {
  it("renders parts as the runtime would return them", () => {
    expect(renderBuiltCall({ text: "t", structured: { b: 1, a: 2 }, imageBase64: "QQ==" })).toBe(
      '{\n  "a": 2,\n  "b": 1,\n  "screenshot_mime_type": "image/png",\n  "screenshot_png_b64": "QQ=="\n}\n',
    );
    expect(renderBuiltCall({ text: "only text", isError: true })).toBe("only text\n");
  });
});
