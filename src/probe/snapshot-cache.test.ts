import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { findSnapshotFile, sdkSnapshot } from "./snapshot-cache.js";
import { sdkUnavailable } from "../../test/helpers/sdk-available.js";
import { readContract } from "./read-contract.js";
import { runGate } from "./gate/run-gate.js";

const kept = new URL("../../contracts/snapshots/", import.meta.url).pathname;
const skip028 = await sdkUnavailable("0.28.2");

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

describe.skipIf(Boolean(skip028))("snapshots where the MCP eras are needed", () => {
  it("a 0.28 snapshot taken without the era steps is not reused; one is probed with them, cached apart, and reused", { timeout: 120_000 }, async () => {
    await using dir = await tmpDir();
    const cacheRoot = path.join(dir.path, "probe");
    // the kept 0.28.2 snapshot was probed without the era steps: fine where eras are not needed …
    expect((await sdkSnapshot("0.28.2", { kept, cacheRoot })).origin).toBe("kept");
    expect(await findSnapshotFile("0.28.2", { kept, cacheRoot, eras: true })).toBeUndefined();
    // … not where they are
    const probed = await sdkSnapshot("0.28.2", { kept, cacheRoot, eras: true });
    expect(probed).toMatchObject({ origin: "probe", file: path.join(cacheRoot, "0.28.2.eras.json") });
    expect(probed.snapshot.mcp_eras).toEqual(["legacy", "2026-07-28"]);
    expect(probed.snapshot.skills?.skills.map((s) => s.uri)).toEqual(["skill://cua-driver/SKILL.md"]);
    const again = await sdkSnapshot("0.28.2", { kept, cacheRoot, eras: true });
    expect(again).toMatchObject({ origin: "cache", file: probed.file });
    expect(await findSnapshotFile("0.28.2", { kept, cacheRoot, eras: true })).toEqual({ file: probed.file, origin: "cache" });
    // the snapshot without them is still what a caller without eras gets
    expect((await sdkSnapshot("0.28.2", { kept, cacheRoot })).snapshot.mcp_eras).toBeUndefined();
    // a version before the modern era serves as it was kept: the era steps find nothing there
    expect((await sdkSnapshot("0.21.0", { kept, cacheRoot, eras: true })).origin).toBe("kept");
  });

  it("gate --sdk 0.28.2 verifies the eras and skills a contract names", { timeout: 120_000 }, async () => {
    await using dir = await tmpDir();
    const base = await readContract(new URL("../../contracts/drivers/cua-driver-0.21.json", import.meta.url).pathname);
    const contract = path.join(dir.path, "contract.json");
    const { baseline: _baseline, ...rest } = base;
    const named = { ...rest, driver: { ...base.driver, mcp_eras: ["legacy", "2026-07-28"] }, skills: { "skill://cua-driver/SKILL.md": {} } };
    await writeFile(contract, JSON.stringify(named));
    const report = await runGate({ contract, sdk: "0.28.2", snapshots: kept, cacheRoot: path.join(dir.path, "probe") });
    const items = report.check!.items.filter((i) => i.kind === "mcp_era" || i.kind === "skill");
    expect(items.map((i) => [i.kind, i.status])).toEqual([
      ["mcp_era", "passed"],
      ["mcp_era", "passed"],
      ["skill", "passed"],
    ]);
    expect(report.skipped.filter((i) => i.kind === "mcp_era" || i.kind === "skill")).toEqual([]);
  });
});
