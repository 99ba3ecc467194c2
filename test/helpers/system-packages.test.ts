import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { skippedSummary } from "./skipped-summary.js";
import { missingFor, skipWithout } from "./system-packages.js";
import { tmpDir } from "./tmp-dir.js";

afterEach(() => vi.unstubAllEnvs());

describe("tests that need Debian packages", () => {
  it("CUA_CONTRACT_TEST_HIDE hides installed packages; an empty PATH finds no desktop", async () => {
    expect(await missingFor("chromium", { CUA_CONTRACT_TEST_HIDE: "desktop,chromium" })).toEqual(["chromium (hidden by CUA_CONTRACT_TEST_HIDE)"]);
    vi.stubEnv("PATH", "/nonexistent");
    expect(await missingFor("desktop")).toEqual(expect.arrayContaining(["Xvfb", "openbox", "xdotool", "gtk3-demo"]));
    expect(await missingFor("chromium")).toEqual(["chromium"]);
  });

  it("skip off CI, fail on CI=true naming what is missing and the packages", async () => {
    vi.stubEnv("CUA_CONTRACT_TEST_HIDE", "all");
    vi.stubEnv("CI", "");
    await using dir = await tmpDir();
    const log = path.join(dir.path, "skips.jsonl");
    expect(await skipWithout("chromium", "report in Chromium", log)).toBe(true);
    expect(JSON.parse(readFileSync(log, "utf8"))).toEqual({
      need: "chromium",
      what: "report in Chromium",
      missing: ["chromium (hidden by CUA_CONTRACT_TEST_HIDE)"],
    });
    vi.stubEnv("CI", "true");
    await expect(skipWithout("desktop", "record --desktop")).rejects.toThrow(
      "CI=true and record --desktop: Xvfb (hidden by CUA_CONTRACT_TEST_HIDE) not found; install with: sudo apt-get install xvfb openbox at-spi2-core gtk-3-examples dbus-x11 xdotool (.ci/run installs them)",
    );
    vi.stubEnv("CUA_CONTRACT_TEST_HIDE", "");
    vi.stubEnv("CI", "");
    vi.stubEnv("PATH", `${process.env.PATH}:/usr/bin`);
    expect(await skipWithout("chromium", "report in Chromium", log)).toBe(!existsSync("/usr/bin/chromium"));
  });

  it("the run's summary is one line naming every skipped group, what is missing and one install command", () => {
    const log = [
      { need: "chromium", what: "report in Chromium", missing: ["chromium"] },
      { need: "desktop", what: "record --desktop", missing: ["Xvfb", "openbox"] },
      { need: "desktop", what: "import live", missing: ["Xvfb", "openbox"] },
    ]
      .map((e) => JSON.stringify(e))
      .join("\n");
    expect(skippedSummary(log)).toBe(
      "SKIPPED 3 test group(s) (report in Chromium; record --desktop; import live): chromium, Xvfb, openbox not found. Install with `sudo apt-get install chromium xvfb openbox at-spi2-core gtk-3-examples dbus-x11 xdotool` (.ci/run does; CI=true makes a missing package fail).",
    );
    expect(skippedSummary("")).toBeUndefined();
  });
});
