import { UserError } from "../errors.js";
import { surfaceOfDocument, type DriverSurface } from "./analysis/surface.js";
import { readJsonFile } from "./read-json.js";
import { snapshotFile } from "./read-snapshot.js";

/** A driver surface from a probe snapshot, a tools/list result (or its JSON-RPC response) or a cassette. */
export async function loadSurface(location: string): Promise<DriverSurface> {
  const file = await snapshotFile(location);
  const fix = "Pass a probe snapshot (`cua-contract probe --save FILE`), a tools/list result, or a cassette directory with probe.json.";
  const value = await readJsonFile({ file, code: "BAD_SNAPSHOT", what: "diff input", fix });
  const found = surfaceOfDocument(value);
  if ("problem" in found) {
    throw new UserError(`diff input is ${found.problem}`, { code: "BAD_SNAPSHOT", file, ...(found.field ? { field: found.field } : {}), fix });
  }
  return found.surface;
}
