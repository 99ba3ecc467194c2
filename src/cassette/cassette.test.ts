import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deflateSync } from "node:zlib";
import type { CassetteHeader } from "#src/schema/cassette.js";
import { createRedactor, openCassetteWriter, readCassette, readFrame, restoreBytes, restoreText, storeText } from "./index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "cassette-test-"));
  dirs.push(d);
  return d;
}

const header: CassetteHeader = {
  format: "cua-cassette",
  version: 1,
  transport: "cli",
  driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic" },
  recorded_at: "2026-11-29T00:00:00.000Z",
  recorder: { name: "cua-contract", version: "0.0.0" },
};

/** A tiny valid PNG (1x1, one colour) so the extractor accepts it. */
function png(seed: number): Buffer {
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const idat = deflateSync(Buffer.from([0, seed & 255, 20, 30, ...Array.from({ length: 60 }, (_, i) => (i * seed) & 255)]));
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

describe("cassette writer + reader", () => {
  it("round-trips stdout with two images byte-exactly and stores each image once", async () => {
    const dir = tmp();
    const a = png(3).toString("base64");
    const b = png(7).toString("base64");
    const stdout = `{\n  "data": "${a}",\n  "label": "ünïcode ✅",\n  "screenshot_png_b64": "${b}",\n  "again": {"data":"${a}"}\n}\n`;
    const w = openCassetteWriter({ dir, header });
    const s = storeText({ bytes: Buffer.from(stdout), field: "stdout", putFrame: w.putFrame });
    expect(s.splices).toHaveLength(3);
    expect(typeof s.stored === "string" && s.stored.includes(a)).toBe(false);
    w.append({ kind: "cli", t_ms: 1, duration_ms: 2, argv: ["call", "x"], stdout: s.stored, stderr: "", exit_code: 0, frames: s.splices });
    w.append({ kind: "cli", t_ms: 3, duration_ms: 1, argv: ["x"], stdout: { encoding: "base64", data: "/w==" }, stderr: "", exit_code: 1 });
    w.close();
    const c = await readCassette(dir);
    expect(c.events).toHaveLength(2);
    expect(c.frameStats.count).toBe(2);
    expect(restoreBytes(c, c.events[0]!, "stdout").equals(Buffer.from(stdout))).toBe(true);
    expect(restoreText(c, c.events[0]!, "stdout")).toBe(stdout);
    expect(restoreBytes(c, c.events[1]!, "stdout")).toEqual(Buffer.from([0xff]));
    expect(readFrame(c, s.splices[0]!.ref).equals(png(3))).toBe(true);
  });

  it("leaves non-canonical base64 inline so restoration stays exact", () => {
    const w = openCassetteWriter({ dir: tmp(), header });
    let bytes = png(5);
    while (bytes.length % 3 === 0) bytes = Buffer.concat([bytes, Buffer.from([0])]);
    const noncanonical = bytes.toString("base64").replace(/=+$/, ""); // no padding: decodes, but does not round-trip
    const text = `{"data":"${noncanonical}"}`;
    const s = storeText({ bytes: text, field: "line", putFrame: w.putFrame });
    expect(s.splices).toHaveLength(0);
    expect(s.stored).toBe(text);
  });

  it("refuses an existing cassette without --append/--force, appends with continuing seq", async () => {
    const dir = tmp();
    const w = openCassetteWriter({ dir, header });
    w.append({ kind: "cli", t_ms: 0, duration_ms: 0, argv: [], stdout: "a", stderr: "", exit_code: 0 });
    w.close();
    expect(() => openCassetteWriter({ dir, header })).toThrow(
      `${path.join(dir, "cassette.jsonl")}: --out: the output directory already holds a cassette. Pass --append to add to it, --force to replace it, or choose another --out directory.`,
    );
    appendFileSync(path.join(dir, "cassette.jsonl"), '{"seq":1,"kind":"cl'); // torn tail
    const w2 = openCassetteWriter({ dir, header, append: true });
    expect(w2.append({ kind: "cli", t_ms: 5, duration_ms: 0, argv: [], stdout: "b", stderr: "", exit_code: 0 })).toBe(1);
    w2.close();
    const c = await readCassette(dir);
    expect(c.events.map((e) => e.seq)).toEqual([0, 1]);
    expect(c.warnings).toEqual([]);
    const w3 = openCassetteWriter({ dir, header, force: true });
    w3.close();
    expect((await readCassette(dir)).events).toHaveLength(0);
  });
});

describe("reader errors", () => {
  function cassette(lines: string[]): string {
    const dir = tmp();
    writeFileSync(path.join(dir, "cassette.jsonl"), lines.join("\n"));
    return dir;
  }
  const h = JSON.stringify(header);
  const ev = (seq: number) => JSON.stringify({ seq, t_ms: 0, kind: "cli", duration_ms: 0, argv: [], stdout: "", stderr: "", exit_code: 0 });

  it("reports a torn last line as a warning naming the line", async () => {
    const dir = cassette([h, ev(0), ev(1).slice(0, 20)]);
    const c = await readCassette(dir);
    expect(c.events).toHaveLength(1);
    expect(c.warnings[0]).toMatch(/cassette\.jsonl:3: torn last line/);
  });
  it("rejects a torn line in the middle with file:line", async () => {
    const dir = cassette([h, ev(0).slice(0, 10), ev(1), ""]);
    await expect(readCassette(dir)).rejects.toThrow(
      `${dir}/cassette.jsonl:2: torn or invalid JSON line in the middle of the cassette. Only the last line may be torn by a crash; repair or delete this line by hand, or re-record.`,
    );
  });
  it("rejects a bad header and an unknown version", async () => {
    await expect(readCassette(cassette(["{nope", ev(0)]))).rejects.toThrow(/cassette\.jsonl:1: bad header: not valid JSON\./);
    await expect(readCassette(cassette([h.replace('"version":1', '"version":2'), ev(0)]))).rejects.toThrow(
      /cassette\.jsonl:1: version: unknown cassette format version 2; this cua-contract reads version 1\. Use the cua-contract release/,
    );
    await expect(readCassette(cassette([h.replace("cua-cassette", "vcr"), ev(0)]))).rejects.toThrow(/:1: format: bad header: format is "vcr"/);
  });
  it("rejects frame refs with path segments and names the field", async () => {
    const bad = JSON.parse(ev(0));
    bad.frames = [{ field: "stdout", at: 0, ref: "frames/../../etc/passwd.png" }];
    await expect(readCassette(cassette([h, JSON.stringify(bad)]))).rejects.toThrow(
      /cassette\.jsonl:2: frames\.0\.ref: frame reference "frames\/\.\.\/\.\.\/etc\/passwd\.png" is not frames\/<sha256>\.<png\|jpg> \(path segments are not allowed\)/,
    );
  });
  it("rejects a frame whose hash does not match, and reports it in report mode", async () => {
    const dir = tmp();
    const w = openCassetteWriter({ dir, header });
    const ref = w.putFrame(png(9), "png");
    w.append({
      kind: "cli",
      t_ms: 0,
      duration_ms: 0,
      argv: [],
      stdout: "",
      stderr: "",
      exit_code: 0,
      files: { "--screenshot-out-file": { ref, path: "/tmp/x.png" } },
    });
    w.close();
    writeFileSync(path.join(dir, ref), png(10));
    await expect(readCassette(dir)).rejects.toThrow(`${path.join(dir, ref)}: frame ${ref} does not match its hash.`);
    const c = await readCassette(dir, { frames: "report" });
    expect(c.frameStats.mismatched).toEqual([ref]);
    expect(c.frameStats.bytes).toBe(readFileSync(path.join(dir, ref)).length);
  });
});

describe("redaction", () => {
  it("replaces typed text, clipboard text and bearer tokens with stable placeholders, keeping JSON valid", () => {
    const r = createRedactor({ enabled: true, patterns: ["sk-[a-z0-9]+"] });
    r.learnFromCall("type_text", '{"text":"hunter2 pass"}');
    const argv = r.text('{"pid":1,"text":"hunter2 pass"}');
    expect(argv).toMatch(/^\{"pid":1,"text":"«redacted:text:[0-9a-f]{8}»"\}$/);
    expect(r.text('{"tree":"field: hunter2 pass!"}')).toBe(argv.replace(/.*"text":"(«[^»]+»)".*/, '{"tree":"field: $1!"}'));
    expect(r.text("Authorization: Bearer abc.def-123")).toMatch(/^Authorization: Bearer «redacted:bearer:[0-9a-f]{8}»$/);
    expect(r.text('{"k":"key sk-abc123"}')).toMatch(/^\{"k":"key «redacted:pattern:[0-9a-f]{8}»"\}$/);
    // Python's json.dumps escapes non-ASCII; the value is still found.
    r.learnFromCall("set_value", { value: "héllo" });
    expect(r.text('{"value": "h\\u00e9llo"}')).toMatch(/^\{"value": "«redacted:value:[0-9a-f]{8}»"\}$/);
    r.learnFromResult("clipboard_read", '{\n  "text": "s3cret"\n}');
    expect(r.text('{\n  "text": "s3cret"\n}')).toContain("«redacted:clipboard:");
    expect(createRedactor({ enabled: false }).text('{"text":"Bearer x"}')).toBe('{"text":"Bearer x"}');
  });
});
