import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { sdkSnapshot } from "./snapshot-cache.js";

describe("sdkSnapshot (the snapshot cache of published versions)", () => {
  it("probes the pinned runtime once into a private cache, then reads it; a damaged entry is probed again", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const cacheRoot = path.join(dir.path, "probe");
    const first = await sdkSnapshot("0.21.0", { cacheRoot });
    expect(first.origin).toBe("probe");
    expect(first.snapshot.metadata?.contractVersion).toBe("0.7.0");
    expect((await stat(cacheRoot)).mode & 0o777).toBe(0o700);
    expect((await stat(first.file!)).mode & 0o777).toBe(0o600);
    const second = await sdkSnapshot("0.21.0", { cacheRoot });
    expect(second).toMatchObject({ origin: "cache", file: first.file });
    expect(second.snapshot).toEqual(first.snapshot);
    await writeFile(first.file!, (await readFile(first.file!, "utf8")).slice(0, 100));
    expect((await sdkSnapshot("0.21.0", { cacheRoot })).origin).toBe("probe");
    expect((await sdkSnapshot("0.21.0", { cacheRoot, refresh: true })).origin).toBe("probe");
  });

  it("asks kept snapshots first and ignores one of another version", async () => {
    await using dir = await tmpDir();
    const kept = new URL("../../contracts/snapshots/", import.meta.url).pathname;
    const got = await sdkSnapshot("0.28.2", { kept, cacheRoot: path.join(dir.path, "probe") });
    expect(got).toMatchObject({ origin: "kept", snapshot: { driver: { version: "0.28.2", source: "sdk" } } });
    await writeFile(path.join(dir.path, "sdk-0.21.0.probe.json"), await readFile(path.join(kept, "sdk-0.28.2.probe.json")));
    expect((await sdkSnapshot("0.21.0", { kept: dir.path, cacheRoot: path.join(dir.path, "probe") })).origin).toBe("probe");
  });
});
