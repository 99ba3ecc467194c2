/**
 * How `cua-driver call` turns one tool result into stdout (cua-driver 0.21.0 `run_call`,
 * `crates/cua-driver/src/cli.rs:2274-2358`; docs/discoveries/cli-call-stdout.md): when the result
 * has a `structuredContent` member (whatever its value, `null` included) stdout is only
 * `to_string_pretty` of it, with the LAST image merged in as `screenshot_png_b64` /
 * `screenshot_mime_type` (even for JPEG) when it is an object and no `--screenshot-out-file` is
 * given; with the flag, every image is written to that one path (the last write wins) and
 * nothing about it is printed. Text blocks are printed, one line each, only when there is no
 * `structuredContent`. Exit 0 even for `isError:true`.
 */
import { arrayItems, rawMember, setSortedMember } from "#src/wire/json/spans.js";
import { serdeString } from "#src/wire/json/string.js";
import { member, parseSerdeJson, serdePretty, setMember, stringNode, stringValue, type SerdeNode } from "#src/wire/json/tree.js";

export interface CliOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Images to write, base64, at the path the harness asked for, in order (the last write wins). */
  files: { path: string; base64: string }[];
}

export function renderCall(options: { raw: string; outFile?: string }): CliOutput {
  const { outFile } = options;
  const result = parseSerdeJson(options.raw);
  const content = member(result, "content");
  const blocks = content?.kind === "array" ? content.items : [];
  const files: CliOutput["files"] = [];
  let lastImage: { data: SerdeNode; mime: string } | undefined;
  for (const block of blocks) {
    if (stringValue(member(block, "type")) !== "image") continue;
    const data = member(block, "data");
    const base64 = stringValue(data);
    if (base64 === undefined || !data) continue;
    if (outFile !== undefined) files.push({ path: outFile, base64 });
    else lastImage = { data, mime: stringValue(member(block, "mimeType")) ?? "image/png" };
  }
  const structured = member(result, "structuredContent");
  let stdout = "";
  if (structured) {
    if (lastImage && structured.kind === "object") {
      setMember(structured, "screenshot_png_b64", lastImage.data);
      setMember(structured, "screenshot_mime_type", stringNode(lastImage.mime));
    }
    stdout = `${serdePretty(structured)}\n`;
  } else {
    for (const block of blocks) {
      if (stringValue(member(block, "type")) !== "text") continue;
      const text = stringValue(member(block, "text"));
      if (text !== undefined) stdout += `${text}\n`;
    }
  }
  return { stdout, stderr: "", exitCode: 0, files };
}

/**
 * What `cua-driver call` prints for a result built from parts (an import rebuilding a trajectory
 * step): the result is assembled as the runtime returns it (text block, optional PNG block,
 * structuredContent, isError) and rendered by `renderCall`.
 */
export function renderBuiltCall(options: { structured?: Record<string, unknown>; text?: string; isError?: boolean; imageBase64?: string }): string {
  const content: Array<Record<string, unknown>> = [];
  if (options.text !== undefined) content.push({ type: "text", text: options.text });
  if (options.imageBase64) content.push({ type: "image", data: options.imageBase64, mimeType: "image/png" });
  const result = {
    content,
    ...(options.isError ? { isError: true } : {}),
    ...(options.structured ? { structuredContent: options.structured } : {}),
  };
  return renderCall({ raw: JSON.stringify(result) }).stdout;
}

/** A raw result with one more image block appended to its content (a recorded out-file, asked for inline). */
export function withImageBlock(raw: string, base64: string, mimeType: string): string {
  const content = rawMember(raw, "content") ?? "[]";
  const items = arrayItems(content);
  items.push(`{"data":${serdeString(base64)},"mimeType":${serdeString(mimeType)},"type":"image"}`);
  return setSortedMember(raw, "content", `[${items.join(",")}]`);
}
