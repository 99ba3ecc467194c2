import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FrameRef } from "#src/schema/bytes.js";
import { FrameSignatureSchema } from "#src/schema/frame-signature.js";
import { FRAMES_DIR } from "./cassette.js";
import { parseFrameRef } from "./frame-ref.js";

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
    text = readFileSync(path.join(options.dir, file), "utf8");
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
  const target = path.join(options.dir, file);
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(doc)}\n`, { mode: 0o600 });
  renameSync(tmp, target);
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

/** Copies a frame from one cassette directory to another, with its stored signature when it has one. */
export function copyFrame(options: { from: string; to: string; ref: string }): void {
  copyFileSync(path.join(options.from, options.ref), path.join(options.to, options.ref));
  const sig = signatureFileOf(options.ref);
  if (sig && existsSync(path.join(options.from, sig))) copyFileSync(path.join(options.from, sig), path.join(options.to, sig));
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
