import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { oncePerRun } from "./once-per-run.js";
import { tmpDir } from "./tmp-dir.js";

describe("a result made once per run", () => {
  it("is made by the first caller only; the others wait for it and get the same directory", async () => {
    await using fallback = await tmpDir();
    const name = `once-${randomUUID()}`;
    let made = 0;
    const make = async (dir: string) => {
      made++;
      await sleep(300);
      await mkdir(dir);
      writeFileSync(path.join(dir, "x"), "made");
    };
    const dirs = await Promise.all([oncePerRun(name, fallback.path, make), oncePerRun(name, fallback.path, make), oncePerRun(name, fallback.path, make)]);
    expect(made).toBe(1);
    expect(new Set(dirs).size).toBe(1);
    expect(readFileSync(path.join(dirs[0]!, "x"), "utf8")).toBe("made");
    // it lives in the run's directory, not in the fallback
    expect(dirs[0]!.startsWith(fallback.path)).toBe(false);
    expect(existsSync(path.join(fallback.path, name))).toBe(false);
  });

  it("fails every caller when the making fails, naming the error", async () => {
    await using fallback = await tmpDir();
    const name = `once-${randomUUID()}`;
    const failing = async () => {
      await sleep(100);
      throw new Error("record exited 3: no desktop");
    };
    const results = await Promise.allSettled([oncePerRun(name, fallback.path, failing), oncePerRun(name, fallback.path, failing)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    // the maker fails with its own error, the other names it
    const reasons = results.map((r) => String((r as PromiseRejectedResult).reason)).sort();
    expect(reasons[0]).toMatch(/^Error: another test file failed to make .*record exited 3: no desktop/s);
    expect(reasons[1]).toBe("Error: record exited 3: no desktop");
  });
});
