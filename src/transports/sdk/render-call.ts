/**
 * How `cua-driver call` turns one tool result into stdout (cua-driver 0.21.0 `run_call`):
 * pretty structuredContent with sorted keys, the LAST image merged in as `screenshot_png_b64` /
 * `screenshot_mime_type` (even for JPEG) unless `--screenshot-out-file` is given, in which case
 * every image is written to that one path and nothing about it is printed; text blocks only when
 * there is no structuredContent; exit 0 even for `isError:true`.
 */
import { member, parseSerdeJson, serdePretty, setMember, stringNode, stringValue, type SerdeNode } from "./serde-json.js";

export interface RenderedCall {
  stdout: string;
  /** Base64 images to write to the out-file path, in order (the last write wins). */
  writes: string[];
  exitCode: number;
}

export function renderCallResult(options: { rawJson: string; screenshotOutFile?: string }): RenderedCall {
  const result = parseSerdeJson(options.rawJson);
  const content = member(result, "content");
  const blocks = content?.kind === "array" ? content.items : [];
  const writes: string[] = [];
  let lastImage: { data: SerdeNode; mime: string } | undefined;
  for (const block of blocks) {
    if (stringValue(member(block, "type")) !== "image") continue;
    const data = member(block, "data");
    if (stringValue(data) === undefined || !data) continue;
    if (options.screenshotOutFile !== undefined) writes.push(stringValue(data)!);
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
  return { stdout, writes, exitCode: 0 };
}
