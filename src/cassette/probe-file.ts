import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROBE_FILE } from "./cassette.js";
import { sha256Hex } from "./frame-ref.js";

/**
 * Writes `probe.json` beside the cassette (through a temp file and a rename, so a crash leaves no
 * half file) and returns the sha256 of its exact bytes, for the header's `driver.probe_sha256`.
 */
export function writeProbeFile(options: { dir: string; snapshot: unknown }): string {
  mkdirSync(options.dir, { recursive: true });
  const bytes = Buffer.from(`${JSON.stringify(options.snapshot, null, 2)}\n`);
  const file = path.join(options.dir, PROBE_FILE);
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
  return sha256Hex(bytes);
}
