import { arrayItems, objectSpans, rawMember, setSortedMember } from "#src/wire/json/spans.js";

/**
 * `oversized`: a result grown past `bytes`, as a driver on a large or high-resolution screen
 * produces one (a full-resolution PNG can pass a client's 1 MB line buffer on its own). The image
 * keeps its pixels and stays a valid image: a PNG gets an ancillary `tEXt` chunk before `IEND`
 * (decoders skip it, its CRC is right), a JPEG `COM` segments after `SOI`. A result without an
 * image grows its first text block (a very large window's tree dump) with trailing spaces.
 */

const CRC_TABLE: readonly number[] = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bin: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < bin.length; i++) c = CRC_TABLE[(c ^ bin.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32(n: number): string {
  return String.fromCharCode((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

const PNG_SIGNATURE = "\x89PNG\r\n\x1a\n";

/** Grow base64 image data by at least `extra` bytes of base64 text, keeping it a valid image of the same pixels. */
export function growImageBase64(data: string, extra: number): string {
  const bin = atob(data);
  const grow = Math.ceil((Math.max(0, extra) * 3) / 4) + 16;
  if (bin.startsWith(PNG_SIGNATURE)) {
    const iend = bin.lastIndexOf("IEND");
    if (iend < 12) return data;
    const body = `Comment\0${" ".repeat(grow)}`;
    const chunk = u32(body.length) + "tEXt" + body + u32(crc32(`tEXt${body}`));
    return btoa(bin.slice(0, iend - 4) + chunk + bin.slice(iend - 4));
  }
  if (bin.startsWith("\xff\xd8")) {
    let segments = "";
    for (let left = grow; left > 0; left -= 65533) {
      const n = Math.min(65533, left);
      segments += `\xff\xfe${String.fromCharCode(((n + 2) >>> 8) & 0xff, (n + 2) & 0xff)}${" ".repeat(n)}`;
    }
    return btoa(bin.slice(0, 2) + segments + bin.slice(2));
  }
  return data;
}

/** A raw tool result grown past `bytes` characters (its image first, else its first text block). */
export function oversizeResult(raw: string, bytes: number): string {
  // the grown value itself passes `bytes`, so every rendering (one JSON-RPC line, the CLI's pretty
  // stdout, where the image or the text is one line of its own) has a line longer than that
  const past = (value: string) => bytes + 1 - value.length;
  let out = raw;
  const content = rawMember(out, "content");
  const items = content ? arrayItems(content) : [];
  const image = items.findIndex((item) => rawMember(item, "type") === '"image"' && rawMember(item, "data") !== undefined);
  const structured = rawMember(out, "structuredContent");
  if (image >= 0) {
    const item = items[image]!;
    const data = JSON.parse(rawMember(item, "data")!) as string;
    items[image] = setSortedMember(item, "data", JSON.stringify(growImageBase64(data, past(data))));
    out = setSortedMember(out, "content", `[${items.join(",")}]`);
  } else if (structured?.startsWith("{") && objectSpans(structured).has("screenshot_png_b64")) {
    const data = JSON.parse(rawMember(structured, "screenshot_png_b64")!) as string;
    out = setSortedMember(out, "structuredContent", setSortedMember(structured, "screenshot_png_b64", JSON.stringify(growImageBase64(data, past(data)))));
  }
  if (out !== raw) return out;
  const text = items.findIndex((item) => rawMember(item, "type") === '"text"' && rawMember(item, "text") !== undefined);
  if (text >= 0) {
    const item = items[text]!;
    const value = JSON.parse(rawMember(item, "text")!) as string;
    items[text] = setSortedMember(item, "text", JSON.stringify(value + " ".repeat(Math.max(0, past(value)))));
    return setSortedMember(out, "content", `[${items.join(",")}]`);
  }
  // nothing to grow: a text block of the size asked for, as a tree dump would be
  const block = JSON.stringify({ text: " ".repeat(bytes + 1), type: "text" });
  return setSortedMember(out, "content", `[${[...items, block].join(",")}]`);
}
