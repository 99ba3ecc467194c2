import { readFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { describe, expect, it } from "vitest";
import { readCassette } from "#src/cassette/reader.js";
import { restoreText } from "#src/cassette/restore.js";
import { renderCall } from "#src/transports/cli/wire/render-call.js";
import { repoRoot } from "../helpers/run-cli.js";
import { skipWithout } from "../helpers/system-packages.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const recorder = path.join(repoRoot, "test/fixtures/trajectories/record-trajectory.mjs");
const skip = await skipWithout("desktop", "import of a fresh trajectory (real runtime under Xvfb)");

// Records a fresh trajectory with the real runtime under Xvfb, then imports it: the rebuilt
// mutation results must print exactly what the driver returned in that run.
describe.skipIf(skip)("cua-contract import (fresh trajectory from the real runtime under Xvfb)", () => {
  it("imports what the runtime just recorded, result for result", { timeout: 90_000 }, async () => {
    await using tmp = await tmpDir();
    const trajectory = path.join(tmp.path, "trajectory");
    const results = path.join(tmp.path, "results.jsonl");
    const recorded = await execa(process.execPath, [recorder, trajectory, results], { reject: false, timeout: 80_000 });
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const truth = readFileSync(results, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { tool: string; result: unknown });
    const out = path.join(tmp.path, "cassette");
    const run = await runCliInProcess(["import", trajectory, "--out", out, "--driver-source", "sdk", "--driver-version", "0.21.0"]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const cassette = await readCassette(out);
    expect(cassette.header.driver).toMatchObject({ source: "sdk", version: "0.21.0", platform: "linux" });
    const mutations = cassette.events.filter((e) => e.kind === "cli" && e.argv[1] !== "get_window_state");
    expect(mutations).toHaveLength(truth.length);
    mutations.forEach((event, i) => {
      expect(restoreText(cassette, event, "stdout")).toBe(renderCall({ raw: JSON.stringify(truth[i]!.result) }).stdout);
    });
    expect(cassette.events.filter((e) => e.kind === "cli" && e.argv[1] === "get_window_state").length).toBeGreaterThanOrEqual(truth.length);
  });
});
