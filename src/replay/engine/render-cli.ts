import { arrayItems, prettyRaw, rawMember, setSortedMember } from "./raw-json.js";

export interface CliOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Files to write, base64 content, at the path the harness asked for. */
  files: { path: string; base64: string }[];
}

/**
 * What `cua-driver call` prints for a tool result (CONTRACT.md §0.1, §0.3, §1.6): pretty
 * structuredContent with the last image merged as `screenshot_png_b64` (or every image written
 * to `--screenshot-out-file`, last wins), else each text block on its own line; exit 0 even
 * when `isError` is true.
 */
export function renderCliCall(options: { raw: string; outFile?: string }): CliOutput {
  const { raw, outFile } = options;
  const content = rawMember(raw, "content");
  const items = content ? arrayItems(content) : [];
  const images: { data: string; mime: string }[] = [];
  const texts: string[] = [];
  for (const item of items) {
    const type = rawMember(item, "type");
    if (type === '"image"') images.push({ data: rawMember(item, "data") ?? '""', mime: rawMember(item, "mimeType") ?? '"image/png"' });
    else if (type === '"text"') texts.push(JSON.parse(rawMember(item, "text") ?? '""') as string);
  }
  const files = outFile !== undefined && images.length > 0 ? [{ path: outFile, base64: JSON.parse(images.at(-1)!.data) as string }] : [];
  let structured = rawMember(raw, "structuredContent");
  if (structured !== undefined && structured !== "null" && structured.startsWith("{")) {
    if (outFile === undefined && images.length > 0) {
      const last = images.at(-1)!;
      structured = setSortedMember(structured, "screenshot_mime_type", last.mime);
      structured = setSortedMember(structured, "screenshot_png_b64", last.data);
    }
    return { stdout: `${prettyRaw(structured)}\n`, stderr: "", exitCode: 0, files };
  }
  return { stdout: texts.map((t) => `${t}\n`).join(""), stderr: "", exitCode: 0, files };
}
