// docs/gate.md shows real outputs: its per-version table and its examples are what the gate prints
// against the kept snapshots of every published version.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const doc = await readFile(path.join(repoRoot, "docs/gate.md"), "utf8");
const kept = path.join(repoRoot, "contracts/snapshots");
const contract = "contracts/drivers/cua-driver-0.21.json";
const fenced = (after: string) => doc.slice(doc.indexOf("```\n", doc.indexOf(after)) + 4).split("\n```")[0]!;

describe("docs/gate.md", () => {
  it("carries the per-version table the gate prints, a row for every kept snapshot", async () => {
    const table = doc.split("<!-- matrix:begin -->\n")[1]!.split("<!-- matrix:end -->")[0]!.trim().split("\n");
    const versions = (await readdir(kept)).map((f) => /^sdk-(.+)\.probe\.json$/.exec(f)?.[1]).filter((v): v is string => Boolean(v));
    expect(
      table
        .slice(2)
        .map((row) => row.split(" | ")[0]!.slice(2))
        .sort(),
    ).toEqual([...versions].sort());
    await using dir = await tmpDir();
    // The registry's list, as the cache keeps it, so `--matrix all` runs offline.
    await mkdir(path.join(dir.path, "cua-contract", "probe"), { recursive: true });
    await writeFile(path.join(dir.path, "cua-contract", "probe", "versions.json"), JSON.stringify({ fetched_at: new Date().toISOString(), versions }));
    const r = await runCliInProcess(["gate", "--contract", contract, "--recordings", "recordings", "--matrix", "all", "--snapshots", kept], {
      env: { XDG_CACHE_HOME: dir.path },
    });
    const printed = String(r.stdout)
      .split("\n")
      .filter((l) => l.startsWith("|"));
    expect(printed).toEqual(table);
  });

  it("shows the 0.28.2 gate and the 0.20.0 listed changes as printed", async () => {
    await using dir = await tmpDir();
    const env = { XDG_CACHE_HOME: dir.path };
    const r028 = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.28.2", "--recordings", "recordings", "--snapshots", kept], { env });
    // The docs show a rerun (the snapshot from the cache); this run reads the kept one.
    const asRerun = String(r028.stdout)
      .trimEnd()
      .replace(
        /^snapshot: kept .*$/m,
        "snapshot: from the cache (~/.cache/cua-contract/probe/0.28.2.json); a published version never changes (--refresh probes it again)",
      );
    expect(asRerun).toBe(fenced("## One candidate"));
    const r020 = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.20.0", "--recordings", "recordings", "--snapshots", kept], { env });
    for (const line of fenced("Against 0.20.0").split("\n")) expect(String(r020.stdout)).toContain(line);
  });
});
