import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { UserError } from "#src/errors.js";
import { loadSurface } from "./load-surface.js";
import { readSnapshot } from "./read-snapshot.js";

const shipped = path.join(repoRoot, "contracts/drivers/cua-driver-0.21.0.probe.json.gz");

/** The shipped snapshot written out plain, so the compressed and plain forms can be compared. */
async function plainCopy(dir: string): Promise<{ file: string; text: string }> {
  const text = gunzipSync(await readFile(shipped)).toString("utf8");
  const file = path.join(dir, "cua-driver-0.21.0.probe.json");
  await writeFile(file, text, { mode: 0o600 });
  return { file, text };
}

async function rejection(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  return error as UserError;
}

describe("a gzip-compressed probe snapshot", () => {
  it("reads as the same snapshot and surface as its plain JSON, whether named .gz or known by its magic bytes", async () => {
    await using dir = await tmpDir();
    const plain = await plainCopy(dir.path);
    const unnamed = path.join(dir.path, "compressed-without-suffix.json");
    await writeFile(unnamed, gzipSync(plain.text), { mode: 0o600 });

    const expected = await readSnapshot(plain.file);
    expect(expected.driver.version).toBe("0.21.0");
    expect(await readSnapshot(shipped)).toEqual(expected);
    expect(await readSnapshot(unnamed)).toEqual(expected);
    const surface = await loadSurface(plain.file);
    expect(await loadSurface(shipped)).toEqual(surface);
  });

  it("that is truncated, or named .gz without being gzip, is a BAD_SNAPSHOT error naming the file and the fix", async () => {
    await using dir = await tmpDir();
    const truncated = path.join(dir.path, "truncated.probe.json.gz");
    await writeFile(truncated, (await readFile(shipped)).subarray(0, 1000), { mode: 0o600 });
    const misnamed = path.join(dir.path, "misnamed.probe.json.gz");
    await writeFile(misnamed, (await plainCopy(dir.path)).text, { mode: 0o600 });

    for (const file of [truncated, misnamed]) {
      for (const read of [readSnapshot, loadSurface]) {
        const error = await rejection(read(file));
        expect(error).toMatchObject({ code: "BAD_SNAPSHOT", exitCode: 2, file });
        expect(error.message).toMatch(/is not valid gzip data/);
        expect(error.fix).toContain("gzip -k FILE.json");
      }
    }
  });

  it("whose JSON is broken names the line of the decompressed text", async () => {
    await using dir = await tmpDir();
    const file = path.join(dir.path, "broken.probe.json.gz");
    await writeFile(file, gzipSync('{\n  "probe_format": 1,\n  oops\n}\n'), { mode: 0o600 });
    const error = await rejection(readSnapshot(file));
    expect(error).toMatchObject({ code: "BAD_SNAPSHOT", file, line: 3 });
    expect(error.message).toContain("probe snapshot is not valid JSON");
  });
});
