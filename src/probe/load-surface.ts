import { stat } from "node:fs/promises";
import path from "node:path";
import { PROBE_FILE } from "#src/cassette/index.js";
import { UserError } from "#src/errors.js";
import { surfaceOfDocument, type DriverSurface } from "#src/contract/surface.js";
import { readJsonFile } from "#src/util/read-json.js";
import { snapshotFile } from "./read-snapshot.js";
import { scanRecordedToolsList } from "./recorded-tools-list.js";

const FIX = "Pass a probe snapshot (`cua-contract probe --save FILE`), a tools/list result, or a cassette directory with probe.json.";

/**
 * A driver surface from a probe snapshot (plain or gzip-compressed), a tools/list result (or its JSON-RPC response) or a
 * cassette: its probe.json, else the tools/list answer recorded in its MCP or HTTP traffic.
 */
export async function loadSurface(location: string): Promise<DriverSurface> {
  const info = await stat(location).catch(() => undefined);
  if (info?.isDirectory() && !(await stat(path.join(location, PROBE_FILE)).catch(() => undefined))) return recordedSurface(location);
  const file = await snapshotFile(location);
  const value = await readJsonFile({ file, code: "BAD_SNAPSHOT", what: "diff input", fix: FIX, gzip: true });
  const found = surfaceOfDocument(value);
  if ("problem" in found) {
    throw new UserError(`diff input is ${found.problem}`, { code: "BAD_SNAPSHOT", file, ...(found.field ? { field: found.field } : {}), fix: FIX });
  }
  return found.surface;
}

async function recordedSurface(dir: string): Promise<DriverSurface> {
  const { found: recorded, scan } = scanRecordedToolsList(dir);
  if (!recorded) {
    throw new UserError("the cassette has no probe.json and no recorded tools/list answer to compare", {
      code: "BAD_SNAPSHOT",
      file: dir,
      fix: "Record it again with a current cua-contract (record stores probe.json unless --no-probe), or probe the driver that made it: `cua-contract probe --driver … --save FILE`, and diff that.",
    });
  }
  const found = surfaceOfDocument(recorded.result);
  if ("problem" in found) {
    throw new UserError(`the recorded tools/list answer is ${found.problem}`, {
      code: "BAD_SNAPSHOT",
      file: path.join(dir, "cassette.jsonl"),
      line: recorded.line,
      fix: FIX,
    });
  }
  const { driver } = scan.header;
  return { ...found.surface, version: driver.version, source: `${driver.source} (tools/list recorded in ${dir})` };
}
