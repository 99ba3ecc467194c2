import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isUserError } from "#src/errors.js";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { chooseSdk, loadSdk, locateSdk, sdkVersionFits, type SdkNotice } from "./load.js";

async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isUserError(error)) throw new Error(`expected a UserError, got ${String(error)}`);
  return error;
}

describe("loadSdk", () => {
  it("uses the project's own copy for the pinned version", async () => {
    const location = await locateSdk("0.21.0");
    expect(location.source).toBe("project");
    const sdk = await loadSdk("0.21.0");
    const driver = await sdk.CuaDriver.create();
    expect((await driver.metadata()).driverVersion).toBe("0.21.0");
  });

  it("rejects a malformed version before touching the registry", async () => {
    const error = await rejection(locateSdk("latest"));
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain('"latest" is not a version of @trycua/cua-driver');
  });

  it("names the published versions when the version does not exist", async () => {
    await using cache = await tmpDir();
    const error = await rejection(locateSdk("0.0.1", { cacheRoot: cache.path }));
    expect(error.code).toBe("USAGE");
    expect(error.message).toMatch(/has no version 0\.0\.1\. .*Published versions: .*0\.21\.0/);
  });

  it("fails with exit 3 within 10 s when the registry is unreachable and nothing is cached, naming the registry", async () => {
    await using cache = await tmpDir();
    // npm's own defaults: its retries would take a minute; the lookup must not wait for them
    const env = { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_cache: path.join(cache.path, "npm") };
    const started = performance.now();
    const error = await rejection(locateSdk("0.28.2", { cacheRoot: path.join(cache.path, "sdk"), env, skipProjectCopy: true }));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(error.code).toBe("DRIVER_UNAVAILABLE");
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain(
      "cannot reach the npm registry http://127.0.0.1:9/ to look up @trycua/cua-driver@0.28.2 (connect ECONNREFUSED 127.0.0.1:9)",
    );
    expect(error.message).toContain("npm install --save-dev @trycua/cua-driver@0.28.2");
    expect(error.message).not.toContain("--driver sdk)");
  });

  it("installs another version once into a private cache and loads it", { timeout: 120_000 }, async () => {
    await using cache = await tmpDir();
    const root = path.join(cache.path, "sdk");
    const notices: SdkNotice[] = [];
    const first = await locateSdk("0.28.2", { cacheRoot: root, onNotice: (n) => notices.push(n) });
    expect(first.source).toBe("cache");
    const download = notices.find((n) => n.kind === "download");
    expect(download).toMatchObject({
      packages: ["@trycua/cua-driver@0.28.2", `@trycua/cua-driver-${process.platform}-${process.arch}-gnu@0.28.2`],
      into: path.join(root, "0.28.2"),
    });
    expect(download?.kind === "download" && download.downloadBytes).toBeGreaterThan(1_000_000);
    expect(notices.at(-1)).toMatchObject({ kind: "installed", version: "0.28.2" });
    expect((await stat(root)).mode & 0o777).toBe(0o700);
    const again = await locateSdk("0.28.2", { cacheRoot: root, env: { ...process.env, npm_config_registry: "http://127.0.0.1:9/" } });
    expect(again.entry).toBe(first.entry);
    const sdk = await loadSdk("0.28.2", { cacheRoot: root });
    const driver = await sdk.CuaDriver.create();
    expect((await driver.metadata()).driverVersion).toBe("0.28.2");
  });
});

/** A project folder whose node_modules holds a stand-in runtime package at `version`. */
async function projectWith(dir: string, version: string): Promise<string> {
  const pkg = path.join(dir, "node_modules", "@trycua", "cua-driver");
  await mkdir(path.join(pkg, "dist"), { recursive: true });
  await writeFile(path.join(pkg, "package.json"), JSON.stringify({ name: "@trycua/cua-driver", version, main: "./dist/index.js" }));
  await writeFile(path.join(pkg, "dist", "index.js"), "export const stand_in = true;\n");
  await writeFile(path.join(dir, "package.json"), "{}\n");
  return pkg;
}

describe("chooseSdk: what a bare --driver sdk means in the user's project", () => {
  it("takes the version the project resolves when it fits, and says so", async () => {
    await using project = await tmpDir();
    const pkg = await projectWith(project.path, "0.28.2");
    await mkdir(path.join(project.path, "src"));
    const choice = await chooseSdk({ cwd: path.join(project.path, "src") });
    expect(choice.version).toBe("0.28.2");
    expect(choice.location?.packageDir).toBe(pkg);
    expect(choice.note).toContain("@trycua/cua-driver 0.28.2, your project's copy");
    // the exact version is then found in the project, with no registry and no cache
    const located = await locateSdk("0.28.2", {
      cwd: project.path,
      cacheRoot: path.join(project.path, "none"),
      env: { ...process.env, npm_config_registry: "http://127.0.0.1:9/" },
    });
    expect(located).toMatchObject({ source: "project", packageDir: pkg });
  });

  it("falls back to the pinned version when the project's is outside the range, naming both", async () => {
    await using project = await tmpDir();
    await projectWith(project.path, "0.14.1");
    const choice = await chooseSdk({ cwd: project.path });
    expect(choice.version).toBe("0.21.0");
    expect(choice.location).toBeUndefined();
    expect(choice.note).toContain("your project's @trycua/cua-driver is 0.14.1, outside the versions --driver sdk picks on its own");
    expect(choice.note).toContain("--driver sdk:0.14.1 uses yours");
  });

  it("knows which versions fit", () => {
    expect(["0.21.0", "0.28.2", "0.99.0"].map(sdkVersionFits)).toEqual([true, true, true]);
    expect(["0.20.0", "1.0.0", "0.28.3-beta.1", "latest"].map(sdkVersionFits)).toEqual([false, false, false, false]);
  });
});

describe("locateSdk without a version", () => {
  it("is the project's own runtime when it fits, with no registry and no cache", async () => {
    await using project = await tmpDir();
    const pkg = await projectWith(project.path, "0.28.2");
    const env = { ...process.env, npm_config_registry: "http://127.0.0.1:9/" };
    expect(await locateSdk(undefined, { cwd: project.path, cacheRoot: path.join(project.path, "none"), env })).toMatchObject({
      version: "0.28.2",
      source: "project",
      packageDir: pkg,
    });
  });
});
