import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../test/helpers/run-cli.js";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { noticePrinter, prepareSdkFlag } from "./sdk-flag.js";

async function projectWith(dir: string, version: string): Promise<void> {
  const pkg = path.join(dir, "node_modules", "@trycua", "cua-driver");
  await mkdir(path.join(pkg, "dist"), { recursive: true });
  await writeFile(path.join(pkg, "package.json"), JSON.stringify({ name: "@trycua/cua-driver", version, main: "./dist/index.js" }));
  await writeFile(path.join(pkg, "dist", "index.js"), "export const stand_in = true;\n");
  await writeFile(path.join(dir, "package.json"), "{}\n");
}

describe("--driver sdk before a command runs", () => {
  it("pins a bare sdk to the project's own runtime, says which, and leaves the harness's arguments alone", async () => {
    await using project = await tmpDir();
    await projectWith(project.path, "0.28.2");
    let said = "";
    const argv = ["record", "--out", "rec", "--driver", "sdk", "--", "node", "h.js", "--driver", "sdk"];
    const out = await prepareSdkFlag(argv, { cwd: project.path, isTTY: false, write: (t) => (said += t) });
    expect(out).toEqual(["record", "--out", "rec", "--driver", "sdk:0.28.2", "--", "node", "h.js", "--driver", "sdk"]);
    expect(said).toBe("cua-contract: --driver sdk: @trycua/cua-driver 0.28.2, your project's copy (node_modules/@trycua/cua-driver)\n");
    expect(await prepareSdkFlag(["serve", "--driver=sdk"], { cwd: project.path, isTTY: false, write: () => {} })).toEqual(["serve", "--driver=sdk:0.28.2"]);
  });

  it("keeps the flag as written for the pinned version, and ignores binaries and --help", async () => {
    let said = "";
    const write = (t: string) => (said += t);
    expect(await prepareSdkFlag(["probe", "--driver", "sdk"], { isTTY: false, write })).toEqual(["probe", "--driver", "sdk"]);
    expect(said).toContain("@trycua/cua-driver 0.21.0, your project's copy");
    said = "";
    expect(await prepareSdkFlag(["record", "--driver", "/usr/bin/cua-driver", "--", "x"], { isTTY: false, write })).toEqual([
      "record",
      "--driver",
      "/usr/bin/cua-driver",
      "--",
      "x",
    ]);
    expect(await prepareSdkFlag(["record", "--driver", "sdk", "--help"], { isTTY: false, write })).toEqual(["record", "--driver", "sdk", "--help"]);
    expect(said).toBe("");
  });

  it("prints what a download fetches, its progress and its end", () => {
    let said = "";
    const print = noticePrinter({ isTTY: false, write: (t) => (said += t) });
    print({
      kind: "download",
      version: "0.28.2",
      packages: ["@trycua/cua-driver@0.28.2", "@trycua/cua-driver-linux-x64-gnu@0.28.2"],
      downloadBytes: 13_600_000,
      registry: "https://registry.npmjs.org/",
      into: "/c/sdk/0.28.2",
    });
    print({ kind: "progress", version: "0.28.2", bytesOnDisk: 5_000_000, elapsedMs: 4_000 });
    print({ kind: "progress", version: "0.28.2", bytesOnDisk: 30_000_000, elapsedMs: 11_000 });
    print({ kind: "installed", version: "0.28.2", into: "/c/sdk/0.28.2", elapsedMs: 12_400 });
    expect(said.split("\n")).toEqual([
      "cua-contract: downloading @trycua/cua-driver@0.28.2 and @trycua/cua-driver-linux-x64-gnu@0.28.2 (13.6 MB to download) from https://registry.npmjs.org/ into /c/sdk/0.28.2; once: later runs use that copy",
      "cua-contract: 30.0 MB on disk after 11 s",
      "cua-contract: installed @trycua/cua-driver 0.28.2 in 12 s",
      "",
    ]);
  });

  it("record --driver sdk:VERSION with no registry and nothing cached exits 3 within 10 s, before running the harness", async () => {
    await using dir = await tmpDir();
    const env = { XDG_CACHE_HOME: path.join(dir.path, "cache"), npm_config_cache: path.join(dir.path, "npm"), npm_config_registry: "http://127.0.0.1:9/" };
    const started = performance.now();
    const r = await runCli(["record", "--driver", "sdk:0.28.2", "--out", "rec", "--", "node", "-e", "require('fs').writeFileSync('ran', '')"], {
      cwd: dir.path,
      env,
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("cannot reach the npm registry http://127.0.0.1:9/ to look up @trycua/cua-driver@0.28.2");
    await expect(stat(path.join(dir.path, "ran"))).rejects.toThrow();
  });
});
