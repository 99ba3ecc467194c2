import { arrayItems, objectSpans, rawMember, setSortedMember } from "#src/wire/json/spans.js";

/**
 * Corrupt base64 image data while keeping it valid base64 of the same length: the signature and
 * header survive (so the harness sees "an image"), everything after the first 24 characters
 * (18 bytes) is replaced, so decoding the PNG/JPEG fails its checksums.
 */
export function corruptBase64(data: string): string {
  const keep = Math.min(24, data.length);
  const padding = data.match(/=*$/)?.[0] ?? "";
  const body = data.length - keep - padding.length;
  return data.slice(0, keep) + "A".repeat(Math.max(0, body)) + padding;
}

/** Corrupt every image block (and a merged `screenshot_png_b64`) in a raw result. */
export function corruptResultImages(raw: string): { raw: string; corrupted: number } {
  let corrupted = 0;
  let out = raw;
  const content = rawMember(out, "content");
  if (content) {
    const items = arrayItems(content).map((item) => {
      if (rawMember(item, "type") !== '"image"') return item;
      const data = rawMember(item, "data");
      if (!data) return item;
      corrupted++;
      return setSortedMember(item, "data", JSON.stringify(corruptBase64(JSON.parse(data) as string)));
    });
    out = setSortedMember(out, "content", `[${items.join(",")}]`);
  }
  const structured = rawMember(out, "structuredContent");
  if (structured?.startsWith("{") && objectSpans(structured).has("screenshot_png_b64")) {
    const data = JSON.parse(rawMember(structured, "screenshot_png_b64")!) as string;
    out = setSortedMember(out, "structuredContent", setSortedMember(structured, "screenshot_png_b64", JSON.stringify(corruptBase64(data))));
    corrupted++;
  }
  return { raw: out, corrupted };
}
