import { stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isUserError } from "#src/errors.js";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { loadSdk, locateSdk } from "./load.js";

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

  it("fails with exit 3 when the registry is unreachable", async () => {
    await using cache = await tmpDir();
    const env = { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" };
    const error = await rejection(locateSdk("0.28.2", { cacheRoot: cache.path, env, skipProjectCopy: true }));
    expect(error.code).toBe("DRIVER_UNAVAILABLE");
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain("cannot reach the npm registry");
  });

  it("installs another version once into a private cache and loads it", { timeout: 120_000 }, async () => {
    await using cache = await tmpDir();
    const root = path.join(cache.path, "sdk");
    const first = await locateSdk("0.28.2", { cacheRoot: root });
    expect(first.source).toBe("cache");
    expect((await stat(root)).mode & 0o777).toBe(0o700);
    const again = await locateSdk("0.28.2", { cacheRoot: root, env: { ...process.env, npm_config_registry: "http://127.0.0.1:9/" } });
    expect(again.entry).toBe(first.entry);
    const sdk = await loadSdk("0.28.2", { cacheRoot: root });
    const driver = await sdk.CuaDriver.create();
    expect((await driver.metadata()).driverVersion).toBe("0.28.2");
  });
});
