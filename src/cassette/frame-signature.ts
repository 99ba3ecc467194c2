import { existsSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import type { FrameRef } from "#src/schema/bytes.js";
import { FrameSignatureSchema } from "#src/schema/frame-signature.js";
import { FRAMES_DIR } from "./cassette.js";
import { makePrivateDir, writeFileAtomic } from "#src/util/atomic-file.js";
import { parseFrameRef } from "./frame-ref.js";
import { copyFileAtomic, readRegularFile } from "./safe-files.js";
import { existingFrameIsGood } from "./frame-store.js";

/** A frame's signature as stored: the grid of grey levels and the frame's own size. */
export interface StoredSignature {
  width: number;
  height: number;
  columns: number;
  rows: number;
  grey: Uint8Array;
}

const SUFFIX = ".sig.json";

/** `frames/<sha256>.sig.json` for `frames/<sha256>.<png|jpg>`; undefined for a ref that is not a frame's. */
export function signatureFileOf(ref: string): string | undefined {
  const parsed = parseFrameRef(ref);
  return parsed ? `${FRAMES_DIR}/${parsed.sha256}${SUFFIX}` : undefined;
}

/**
 * The stored signature of a frame, when there is one made by `method` for this very frame;
 * undefined when it is absent, unreadable or not that (the caller then computes it).
 */
export function readFrameSignature(options: { dir: string; ref: string; method: string }): StoredSignature | undefined {
  const file = signatureFileOf(options.ref);
  if (!file) return undefined;
  let text: string;
  try {
    // a cache: a signature that is a link or not a regular file is ignored (and recomputed)
    const at = path.join(options.dir, file);
    if (!lstatSync(at).isFile()) return undefined;
    text = readRegularFile(at, { what: file, fix: "" }).toString("utf8");
  } catch {
    return undefined;
  }
  let parsed: ReturnType<typeof FrameSignatureSchema.safeParse>;
  try {
    parsed = FrameSignatureSchema.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const doc = parsed.data;
  if (doc.frame !== options.ref || doc.method !== options.method) return undefined;
  const grey = Buffer.from(doc.grey, "base64");
  if (grey.length !== doc.columns * doc.rows) return undefined;
  return { width: doc.width, height: doc.height, columns: doc.columns, rows: doc.rows, grey: new Uint8Array(grey) };
}

/** Writes a frame's signature beside it (a temp file and a rename: a crash leaves the old one or none). */
export function writeFrameSignature(options: { dir: string; ref: FrameRef; method: string; signature: StoredSignature }): void {
  const file = signatureFileOf(options.ref);
  if (!file) throw new Error(`not a frame ref: ${options.ref}`);
  const s = options.signature;
  const doc = FrameSignatureSchema.parse({
    format: "cua-frame-signature",
    version: 1,
    frame: options.ref,
    method: options.method,
    width: s.width,
    height: s.height,
    columns: s.columns,
    rows: s.rows,
    grey: Buffer.from(s.grey).toString("base64"),
  });
  writeFileAtomic({ file: path.join(options.dir, file), data: `${JSON.stringify(doc)}\n` });
}

/** The frames stored in a cassette directory (files named as frame refs), in name order. */
export function storedFrameRefs(dir: string): FrameRef[] {
  const framesDir = path.join(dir, FRAMES_DIR);
  if (!existsSync(framesDir)) return [];
  return readdirSync(framesDir)
    .map((name) => `${FRAMES_DIR}/${name}`)
    .filter((ref) => parseFrameRef(ref) !== undefined)
    .sort();
}

/**
 * Copies a frame from one cassette directory to another (atomically; a frame already there with
 * the right content is kept), with its stored signature when it has one that is a regular file of
 * the source cassette (a signature that is a link is not copied: it is a cache, recomputed).
 */
export function copyFrame(options: { from: string; to: string; ref: string }): void {
  const target = path.join(options.to, options.ref);
  if (!existingFrameIsGood(target, options.ref)) {
    makePrivateDir(path.join(options.to, FRAMES_DIR));
    copyFileAtomic(path.join(options.from, options.ref), target, {
      what: `frame ${options.ref}`,
      fix: `Copy ${options.ref} back into ${path.join(options.from, FRAMES_DIR)}, or re-record the cassette.`,
    });
  }
  const sig = signatureFileOf(options.ref);
  if (!sig) return;
  const from = path.join(options.from, sig);
  let regular = false;
  try {
    regular = lstatSync(from).isFile();
  } catch {
    // no signature: nothing to copy
  }
  if (regular) copyFileAtomic(from, path.join(options.to, sig), { what: sig, fix: "", inside: options.from });
}

const FRAME_FILE = /^[0-9a-f]{64}(?:\.png|\.jpg|\.sig\.json)$/;

/** Whether a name in frames/ is a frame's or a frame signature's (the only files a writer ever removes there). */
export function isFrameFileName(name: string): boolean {
  return FRAME_FILE.test(name);
}

/** The files of frames/ that belong to these frames: the frames and their signatures. */
export function frameFilesOf(refs: Iterable<string>): Set<string> {
  const files = new Set<string>();
  for (const ref of refs) {
    files.add(ref);
    const sig = signatureFileOf(ref);
    if (sig) files.add(sig);
  }
  return files;
}
