import path from "node:path";
import { UserError } from "#src/errors.js";
import { CASSETTE_FILE, PROBE_FILE } from "./cassette.js";
import { readCassetteSync } from "./reader.js";
import { probeFileBytes } from "./probe-file.js";
import { rewriteHeader } from "./rewrite-header.js";
import { checkRegularFile, lockCassette } from "./safe-files.js";
import type { FrameRef } from "#src/schema/bytes.js";
import type { CassetteHeader, CassetteTransport } from "#src/schema/cassette.js";
import type { FrameExt } from "./frame-ref.js";
import { openCassetteWriter, type CassetteEventInput, type CassetteWriter } from "./writer.js";
import { transportOf, type RecordedTransport } from "./exchanges/index.js";
import { syncFiles, writeFrame } from "./frame-store.js";
import { makePrivateDir, writeFileAtomic } from "#src/util/atomic-file.js";
import { rmSync } from "node:fs";

/**
 * The recorder's view of a cassette. The header (line 1) names the transport, which is only known
 * when the harness first calls the driver: the file is opened then, with the recorder's own
 * identity events first. If both transports show up, the header is rewritten as `mixed` on close.
 * The cassette's lock is held from creation to close (a second writer waits, then exits 2).
 */
export interface RecordingSink {
  readonly dir: string;
  append(event: CassetteEventInput): number;
  putFrame(bytes: Uint8Array, ext: FrameExt): FrameRef;
  /** The header as written (undefined until the file is opened). */
  header(): CassetteHeader | undefined;
  close(): void;
}

export interface OpenedRecordingSink extends RecordingSink {
  /** The header of the cassette appended to (`append` over an existing one), else undefined. */
  readonly existing: CassetteHeader | undefined;
  /**
   * Stores probe.json and returns its sha256. Replacing a cassette (`force`), it is put in place
   * just before the new cassette.jsonl, so a crash before then leaves the old pair.
   */
  putProbe(snapshot: unknown): string;
  /** Patterns to add to the header's `redaction.patterns` on close (appending with new `--redact`). */
  addPatterns(patterns: readonly string[]): void;
}

export function createRecordingSink(options: {
  dir: string;
  header: Omit<CassetteHeader, "transport">;
  append?: boolean;
  force?: boolean;
}): OpenedRecordingSink {
  const dir = path.resolve(options.dir);
  const file = path.join(dir, CASSETTE_FILE);
  makePrivateDir(dir, "--out");
  const lock = lockCassette(dir);
  let existing: CassetteHeader | undefined;
  try {
    const exists = checkRegularFile(file, { what: "cassette.jsonl", fix: "Choose another --out directory.", inside: dir }) === "file";
    if (exists && !options.append && !options.force) {
      throw new UserError("the output directory already holds a cassette", {
        code: "OUTPUT_EXISTS",
        file,
        field: "--out",
        fix: "Pass --append to add to it, --force to replace it, or choose another --out directory.",
      });
    }
    // fail now, not after the harness ran
    if (exists && options.append) existing = readCassetteSync(dir, { frames: "skip" }).header;
  } catch (error) {
    lock.release();
    throw error;
  }
  const replacing = existing === undefined && options.force === true && checkRegularFile(file, { what: "cassette.jsonl", fix: "" }) === "file";
  let writer: CassetteWriter | undefined;
  let closed = false;
  let probe: { bytes: Buffer; sha256: string } | undefined;
  const extraPatterns: string[] = [];
  const early: CassetteEventInput[] = [];
  const unsynced: string[] = [];
  const seen = new Set<RecordedTransport>();
  const open = (transport: CassetteTransport) => {
    writer = openCassetteWriter({
      dir,
      header: { ...options.header, transport } as CassetteHeader,
      append: options.append ?? false,
      force: options.force ?? false,
      beforeCommit: () => {
        if (probe) writeFileAtomic({ file: path.join(dir, PROBE_FILE), data: probe.bytes });
      },
    });
    for (const e of early.splice(0)) writer.append(e);
  };
  return {
    dir,
    existing,
    append(event) {
      // A call still finishing when the session ends (its shim was cut off) is not recorded.
      if (closed) return -1;
      const transport = transportOf(event);
      if (event.origin === "recorder" && !writer) {
        early.push(event);
        return -1;
      }
      seen.add(transport);
      if (!writer) open(transport);
      return writer!.append(event);
    },
    putFrame(bytes, ext) {
      // No fsync per call: the frames are flushed once on close (a SIGKILL loses nothing the kernel has).
      return writeFrame({ dir, bytes, ext, sync: false, onWritten: (f) => unsynced.push(f) });
    },
    putProbe(snapshot) {
      probe = probeFileBytes(snapshot);
      if (!replacing) writeFileAtomic({ file: path.join(dir, PROBE_FILE), data: probe.bytes });
      return probe.sha256;
    },
    addPatterns(patterns) {
      extraPatterns.push(...patterns);
    },
    header: () => writer?.header,
    close() {
      if (closed) return;
      closed = true;
      try {
        syncFiles(unsynced.splice(0));
        if (!writer) open("cli");
        writer!.close();
        // a replaced cassette recorded without a probe: the old probe.json is not this one's
        if (replacing && !probe) rmSync(path.join(dir, PROBE_FILE), { force: true });
        const header = writer!.header;
        const mixed = seen.size > 1 && header.transport !== "mixed";
        const had = header.redaction?.patterns ?? [];
        const patterns = [...new Set([...had, ...extraPatterns])];
        if (mixed || patterns.length > had.length) {
          rewriteHeader(writer!.file, {
            ...header,
            ...(mixed ? { transport: "mixed" } : {}),
            redaction: { enabled: header.redaction?.enabled ?? true, ...(patterns.length ? { patterns } : {}) },
          });
        }
      } finally {
        lock.release();
      }
    },
  };
}
