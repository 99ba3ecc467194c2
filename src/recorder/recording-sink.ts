import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import { CASSETTE_FILE, FRAMES_DIR, PROBE_FILE } from "#src/cassette/cassette.js";
import { readCassetteSync } from "#src/cassette/reader.js";
import type { FrameRef } from "#src/schema/bytes.js";
import type { CassetteHeader, CassetteTransport } from "#src/schema/cassette.js";
import type { FrameExt } from "#src/cassette/frame-ref.js";
import { openCassetteWriter, type CassetteEventInput, type CassetteWriter } from "#src/cassette/writer.js";
import { syncFiles, writeFrame } from "#src/cassette/frame-store.js";

/**
 * The recorder's view of a cassette. The header (line 1) names the transport, which is only known
 * when the harness first calls the driver: the file is opened then, with the recorder's own
 * identity events first. If both transports show up, the header is rewritten as `mixed` on close.
 */
export interface RecordingSink {
  readonly dir: string;
  append(event: CassetteEventInput): number;
  putFrame(bytes: Uint8Array, ext: FrameExt): FrameRef;
  /** The header as written (undefined until the file is opened). */
  header(): CassetteHeader | undefined;
  close(): void;
}

export function createRecordingSink(options: { dir: string; header: Omit<CassetteHeader, "transport">; append?: boolean; force?: boolean }): RecordingSink {
  const file = path.join(options.dir, CASSETTE_FILE);
  if (existsSync(file)) {
    if (!options.append && !options.force) {
      throw new UserError("the output directory already holds a cassette", {
        code: "OUTPUT_EXISTS",
        file,
        field: "--out",
        fix: "Pass --append to add to it, --force to replace it, or choose another --out directory.",
      });
    }
    if (!options.append) {
      for (const name of [CASSETTE_FILE, FRAMES_DIR, PROBE_FILE]) rmSync(path.join(options.dir, name), { recursive: true, force: true });
    } else {
      readCassetteSync(options.dir, { frames: "skip" }); // fail now, not after the harness ran
    }
  }
  let writer: CassetteWriter | undefined;
  let closed = false;
  const early: CassetteEventInput[] = [];
  const unsynced: string[] = [];
  const seen = new Set<"cli" | "mcp" | "http">();
  const open = (transport: CassetteTransport) => {
    writer = openCassetteWriter({
      dir: options.dir,
      header: { ...options.header, transport } as CassetteHeader,
      append: options.append ?? false,
    });
    for (const e of early.splice(0)) writer.append(e);
  };
  return {
    dir: options.dir,
    append(event) {
      // A call still finishing when the session ends (its shim was cut off) is not recorded.
      if (closed) return -1;
      const transport = event.kind === "cli" ? "cli" : event.kind.startsWith("mcp") ? "mcp" : event.kind === "http" ? "http" : undefined;
      if (event.origin === "recorder" && !writer) {
        early.push(event);
        return -1;
      }
      if (transport) seen.add(transport);
      if (!writer) open(transport ?? "cli");
      return writer!.append(event);
    },
    putFrame(bytes, ext) {
      // No fsync per call: the frames are flushed once on close (a SIGKILL loses nothing the kernel has).
      return writeFrame({ dir: options.dir, bytes, ext, sync: false, onWritten: (f) => unsynced.push(f) });
    },
    header: () => writer?.header,
    close() {
      if (closed) return;
      closed = true;
      if (!writer) open("cli");
      writer!.close();
      syncFiles(unsynced.splice(0));
      if (seen.size > 1 && writer!.header.transport !== "mixed") rewriteTransport(writer!.file, "mixed");
    },
  };
}

// Line 1 is rewritten through a temp file and a rename, so a crash leaves the old or the new file.
function rewriteTransport(file: string, transport: CassetteTransport): void {
  const text = readFileSync(file, "utf8");
  const nl = text.indexOf("\n");
  const header = JSON.parse(text.slice(0, nl)) as CassetteHeader;
  header.transport = transport;
  writeFileSync(`${file}.tmp`, `${JSON.stringify(header)}${text.slice(nl)}`);
  renameSync(`${file}.tmp`, file);
}
