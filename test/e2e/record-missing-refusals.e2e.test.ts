// replay --record-missing's refusals, which need no desktop: under CI=true without --allow-in-ci,
// and flags that do not go together (the growing runs on a desktop are in record-missing.e2e.test.ts).
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const fakeDriver = path.join(repoRoot, "test", "fixtures", "drivers", "cua-driver-0.21.0");

describe("replay --record-missing refusals", () => {
  it("is refused under CI=true unless --allow-in-ci (exit 2, saying why)", async () => {
    const refused = await runCliInProcess(["replay", "recordings/gtk3-demo-cli", "--record-missing", "--driver", "sdk", "--", "true"], { env: { CI: "true" } });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      "cua-contract: --record-missing: record-missing is refused when CI=true: it sends the harness's calls to a live driver and rewrites the cassette, and a CI run should replay the committed cassette. Grow the cassette on a desktop and commit it (docs/replay.md), or pass --allow-in-ci when this job is meant to grow it.",
    );
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "rec");
    cpSync(path.join(repoRoot, "recordings", "gtk3-demo-cli"), copy, { recursive: true });
    const before = readFileSync(path.join(copy, "cassette.jsonl"));
    const allowed = await runCliInProcess(["replay", copy, "--record-missing", "--allow-in-ci", "--driver", fakeDriver, "--", "true"], { env: { CI: "true" } });
    expect(allowed.exitCode, String(allowed.stderr)).toBe(0);
    expect(allowed.stderr).toContain("nothing was missing");
    expect(readFileSync(path.join(copy, "cassette.jsonl")).equals(before)).toBe(true);
  });

  it("names the flags that do not go together", async () => {
    const noDriver = await runCliInProcess(["replay", "recordings/gtk3-demo-cli", "--record-missing", "--", "true"], { env: { CI: "" } });
    expect([noDriver.exitCode, noDriver.stderr]).toEqual([
      2,
      expect.stringContaining("--driver: --record-missing needs the live driver to forward to. Pass --driver sdk"),
    ]);
    const withFaults = await runCliInProcess(
      ["replay", "recordings/gtk3-demo-cli", "--record-missing", "--driver", "sdk", "--faults", "x.json", "--", "true"],
      {
        env: { CI: "" },
      },
    );
    expect([withFaults.exitCode, withFaults.stderr]).toEqual([2, expect.stringContaining("--faults cannot be used with --record-missing")]);
    const driverAlone = await runCliInProcess(["replay", "recordings/gtk3-demo-cli", "--driver", "sdk", "--", "true"]);
    expect([driverAlone.exitCode, driverAlone.stderr]).toEqual([2, expect.stringContaining("--driver only goes with --record-missing")]);
  });
});
