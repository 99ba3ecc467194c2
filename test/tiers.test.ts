// The tiers of test/tiers.ts hold: a test file that starts a throwaway desktop runs in
// `npm run test:desktop`, not in `npm test`, and every file a tier names exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DESKTOP_FILES, WRITERS_BATTERY_FILES } from "./tiers.js";
import { repoRoot } from "./helpers/run-cli.js";

/** What a test file does when it starts a desktop: itself, through the CLI, or by skipping without one. */
const STARTS_A_DESKTOP = [/startDesktop\(/, /"--desktop"/, /await skipWithout\("desktop"/, /"desktop", "start"/];

function startsADesktop(source: string): boolean {
  return STARTS_A_DESKTOP.some((re) => re.test(source));
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)));
}

describe("test tiers", () => {
  it("puts every test file that starts a desktop in the desktop tier", () => {
    const starting = [...testFiles("src"), ...testFiles("test")]
      .filter((f) => f !== "test/tiers.test.ts") // its own examples below
      .filter((f) => startsADesktop(readFileSync(path.join(repoRoot, f), "utf8")));
    expect(starting.length).toBeGreaterThan(0);
    expect(starting.filter((f) => !DESKTOP_FILES.includes(f))).toEqual([]);
  });

  it("names only files that exist, each starting a desktop (desktop tier) or a writers' battery", () => {
    for (const f of [...DESKTOP_FILES, ...WRITERS_BATTERY_FILES]) expect(existsSync(path.join(repoRoot, f)), f).toBe(true);
    expect(DESKTOP_FILES.filter((f) => !startsADesktop(readFileSync(path.join(repoRoot, f), "utf8")))).toEqual([]);
  });

  it("recognises each way a test starts one, and not a test of the skip helper", () => {
    expect(startsADesktop('const skip = await skipWithout("desktop", "x");')).toBe(true);
    expect(startsADesktop('runCli(["record", "--driver", "sdk", "--desktop"])')).toBe(true);
    expect(startsADesktop("await using desktop = await startDesktop();")).toBe(true);
    expect(startsADesktop('runCli(["desktop", "start"])')).toBe(true);
    expect(startsADesktop('await expect(skipWithout("desktop", "record --desktop")).rejects.toThrow()')).toBe(false);
  });
});
