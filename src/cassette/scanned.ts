import type { Cassette } from "./cassette.js";
import type { CassetteScan } from "./scan.js";

/**
 * The cassette a line-by-line scan read, as a `Cassette`: header, warnings, frames and probe from
 * the scan, its events (and their line numbers) read in full only if something asks for them.
 */
export function cassetteOfScan(scan: CassetteScan, readAll: () => Cassette): Cassette {
  let full: Cassette | undefined;
  const all = () => (full ??= readAll());
  return {
    dir: scan.dir,
    file: scan.file,
    header: scan.header,
    get events() {
      return all().events;
    },
    get lines() {
      return all().lines;
    },
    warnings: scan.warnings,
    frameStats: scan.frameStats,
    ...(scan.probe ? { probe: scan.probe.json, probeSha256: scan.probe.sha256 } : {}),
  };
}
