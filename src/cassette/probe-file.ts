import path from "node:path";
import { makePrivateDir, writeFileAtomic } from "#src/util/atomic-file.js";
import { PROBE_FILE } from "./cassette.js";
import { sha256Hex } from "./frame-ref.js";

/** The bytes of `probe.json` for a snapshot, and their sha256 (the header's `driver.probe_sha256`). */
export function probeFileBytes(snapshot: unknown): { bytes: Buffer; sha256: string } {
  const bytes = Buffer.from(`${JSON.stringify(snapshot, null, 2)}\n`);
  return { bytes, sha256: sha256Hex(bytes) };
}

/**
 * Writes `probe.json` beside the cassette (a temp file, checked writes, fsync, rename: a crash
 * leaves the old file or the new one) and returns the sha256 of its exact bytes, for the header's
 * `driver.probe_sha256`.
 */
export function writeProbeFile(options: { dir: string; snapshot: unknown }): string {
  makePrivateDir(options.dir, "--out");
  const { bytes, sha256 } = probeFileBytes(options.snapshot);
  writeFileAtomic({ file: path.join(options.dir, PROBE_FILE), data: bytes });
  return sha256;
}
