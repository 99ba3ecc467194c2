import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

// The fake imitates cua-driver 0.21.0's CLI and MCP surface (test/fixtures/drivers/README.md).
const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const header = (dir: string) => JSON.parse(readFileSync(path.join(dir, "cassette.jsonl"), "utf8").split("\n")[0]!);
const harness = ["--", "sh", "-c", "cua-driver list-tools >/dev/null"];

describe("record stores a probe of the driver it records", () => {
  it("writes probe.json pinned by the header, asking --version and manifest once for identity and probe together", async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const log = path.join(dir.path, "driver.log");
    const r = await runCliInProcess(["record", "--out", out, "--driver", fake, ...harness], { env: { FAKE_CUA_DRIVER_LOG: log } });
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    const probeFile = path.join(out, "probe.json");
    expect(header(out).driver.probe_sha256).toBe(sha256(probeFile));
    const snapshot = JSON.parse(readFileSync(probeFile, "utf8"));
    expect(snapshot).toMatchObject({ format: "cua-probe", driver: { source: "binary", location: fake, version: "0.21.0" } });
    expect(snapshot.steps.find((s: { step: string }) => s.step === "manifest")).toMatchObject({ status: "succeeded" });
    expect(snapshot.tools_list.tools.length).toBeGreaterThan(50);
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { argv: string[] }).argv.join(" "));
    expect(calls.filter((c) => c === "--version")).toHaveLength(1);
    expect(calls.filter((c) => c === "manifest")).toHaveLength(1);
    expect(calls).toContain("mcp");
    const inspect = JSON.parse(String((await runCliInProcess(["inspect", out, "--json"])).stdout));
    expect(inspect.by_origin).toEqual({ recorder: 2, harness: 1 });
    expect(inspect.probe).toEqual({ present: true, status: "matches", sha256: sha256(probeFile), header_sha256: sha256(probeFile) });
    expect(String((await runCliInProcess(["inspect", out])).stdout)).toMatch(/^probe {6}probe\.json, sha256 [0-9a-f]{12}… matches the header$/m);

    // Appending keeps the cassette's probe as it was.
    const again = await runCliInProcess(["record", "--out", out, "--append", "--driver", fake, ...harness], { env: { FAKE_CUA_DRIVER_LOG: log } });
    expect(again.exitCode).toBe(0);
    const mcpStarts = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter((l) => (JSON.parse(l) as { argv: string[] }).argv[0] === "mcp");
    expect(mcpStarts).toHaveLength(1);
    expect(header(out).driver.probe_sha256).toBe(sha256(probeFile));
  });

  it("--no-probe records identity only", async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const r = await runCliInProcess(["record", "--out", out, "--no-probe", "--driver", fake, ...harness]);
    expect(r.exitCode).toBe(0);
    expect(existsSync(path.join(out, "probe.json"))).toBe(false);
    expect(header(out).driver).not.toHaveProperty("probe_sha256");
    expect(header(out).driver.manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(String((await runCliInProcess(["inspect", out, "--json"])).stdout)).probe).toEqual({ present: false, status: "absent" });
  });

  it("inspect fails an altered or missing probe.json with exit 2 naming the file, the field and the fix", async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    expect((await runCliInProcess(["record", "--out", out, "--driver", fake, ...harness])).exitCode).toBe(0);
    const probeFile = path.join(out, "probe.json");
    const pinned = header(out).driver.probe_sha256;
    expect(pinned).toBe(sha256(probeFile));
    writeFileSync(probeFile, readFileSync(probeFile, "utf8").replace('"version": 1', '"version": 1 '));
    const altered = await runCliInProcess(["inspect", out]);
    expect([altered.exitCode, altered.stderr]).toEqual([
      2,
      `cua-contract: ${probeFile}: does not match driver.probe_sha256 in the header (field driver.probe_sha256). Restore probe.json from the original recording, or re-record the cassette.`,
    ]);
    expect(String(altered.stdout)).toContain(`does NOT match the header's ${pinned.slice(0, 12)}…`);
    rmSync(probeFile);
    const missing = await runCliInProcess(["inspect", out, "--json"]);
    expect(missing.exitCode).toBe(2);
    expect(JSON.parse(String(missing.stdout)).probe).toEqual({ present: false, status: "missing", header_sha256: pinned });
  });
});
