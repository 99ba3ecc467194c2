import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderCallResult } from "./render-call.js";

const oracles = new URL("../../../test/fixtures/sdk-oracles/", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, oracles), "utf8");

interface Example {
  argv: string;
  stdout_file: string;
  exit_code: number;
  source_result: string;
}
const examples = JSON.parse(read("call-examples/_index.json")) as Example[];

describe("renderCallResult against the cua-driver 0.21.0 call examples", () => {
  it.each(examples.map((e) => [e.stdout_file, e] as const))("%s", (_name, example) => {
    const rawJson = read(`captured/${example.source_result.split("/").pop()}`);
    const outFile = /--screenshot-out-file (\S+)/.exec(example.argv)?.[1];
    const rendered = renderCallResult({ rawJson, screenshotOutFile: outFile });
    expect(rendered.stdout).toBe(read(`call-examples/${example.stdout_file}`));
    expect(rendered.exitCode).toBe(example.exit_code);
    if (outFile) expect(rendered.writes.length).toBeGreaterThan(0);
  });

  it("merges the last image and writes every image to the out-file", () => {
    const rawJson =
      '{"content":[{"data":"QQ==","mimeType":"image/png","type":"image"},{"data":"Qg==","mimeType":"image/jpeg","type":"image"}],"structuredContent":{"z":1}}';
    expect(renderCallResult({ rawJson }).stdout).toBe(
      '{\n  "screenshot_mime_type": "image/jpeg",\n  "screenshot_png_b64": "Qg==",\n  "z": 1\n}\n',
    );
    expect(renderCallResult({ rawJson, screenshotOutFile: "/x.png" })).toEqual({
      stdout: '{\n  "z": 1\n}\n',
      writes: ["QQ==", "Qg=="],
      exitCode: 0,
    });
  });

  it("prints every text block when there is no structuredContent, even for isError", () => {
    const rawJson = '{"content":[{"text":"one","type":"text"},{"text":"two","type":"text"}],"isError":true}';
    expect(renderCallResult({ rawJson })).toEqual({ stdout: "one\ntwo\n", writes: [], exitCode: 0 });
  });
});
