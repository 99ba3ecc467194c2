import { stat } from "node:fs/promises";
import path from "node:path";
import { checkRegularFile } from "#src/cassette/safe-files.js";
import { ProbeSnapshotSchema, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import { parseWith, readJsonDocument } from "#src/util/read-json.js";
import { UserError } from "#src/errors.js";

const FIX = "Write a snapshot with `cua-contract probe --save FILE`.";

/** A probe snapshot from a file (plain or gzip-compressed, `*.probe.json.gz`), or the `probe.json` of a cassette directory. */
export async function readSnapshot(location: string): Promise<ProbeSnapshot> {
  const file = await snapshotFile(location);
  const { value, text } = await readJsonDocument({ file, code: "BAD_SNAPSHOT", what: "probe snapshot", fix: FIX, gzip: true });
  return parseWith({ schema: ProbeSnapshotSchema, value, text, file, code: "BAD_SNAPSHOT", what: "probe snapshot", fix: FIX });
}

/** `dir/probe.json` for a cassette directory, else the path itself. */
export async function snapshotFile(location: string): Promise<string> {
  const info = await stat(location).catch(() => undefined);
  if (!info?.isDirectory()) return location;
  const file = path.join(location, "probe.json");
  if (!(await stat(file).catch(() => undefined))) {
    throw new UserError("the cassette has no probe.json", {
      code: "BAD_SNAPSHOT",
      file: location,
      fix: "Record it again with probing on, or pass a snapshot written by `cua-contract probe --save FILE`.",
    });
  }
  checkRegularFile(file, {
    what: "probe.json",
    fix: "probe.json must be a regular file of the cassette: delete it, or take the probe again with `cua-contract probe`.",
    inside: location,
    code: "BAD_INPUT",
  });
  return file;
}
