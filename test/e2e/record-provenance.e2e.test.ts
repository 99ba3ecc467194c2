import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const harness = ["--", "sh", "-c", "cua-driver call get_screen_size '{}' >/dev/null"];

function headerOf(dir: string): { driver: { source: string } } {
  return JSON.parse(readFileSync(path.join(dir, "cassette.jsonl"), "utf8").split("\n")[0]!) as { driver: { source: string } };
}

describe("record: provenance in the header", () => {
  it("labels a recording from a test double synthetic when told, binary by default", async () => {
    await using dir = await tmpDir();
    const synthetic = path.join(dir.path, "synthetic");
    const binary = path.join(dir.path, "binary");
    expect((await runCliInProcess(["record", "--out", synthetic, "--driver", fake, "--driver-source", "synthetic", "--no-probe", ...harness])).exitCode).toBe(
      0,
    );
    expect((await runCliInProcess(["record", "--out", binary, "--driver", fake, "--no-probe", ...harness])).exitCode).toBe(0);
    expect(headerOf(synthetic).driver.source).toBe("synthetic");
    expect(headerOf(binary).driver.source).toBe("binary");
  });

  it("refuses --driver-source with the sdk backend", async () => {
    const r = await runCliInProcess(["record", "--out", "/tmp/never-written", "--driver", "sdk", "--driver-source", "synthetic", ...harness]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--driver-source is for an executable driver; a recording from --driver sdk is always source sdk.");
  });
});
