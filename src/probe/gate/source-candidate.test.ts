import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderGate } from "./render-gate.js";
import { renderMatrix } from "./render-matrix.js";
import { acquireCandidate, judgeCandidate, prepareGate } from "./run-gate.js";
import { runMatrix } from "./run-matrix.js";

const root = new URL("../../../", import.meta.url).pathname;
const contract = path.join(root, "contracts/drivers/cua-driver-0.21.json");
const recordings = [path.join(root, "recordings")];
const source = path.join(root, "contracts/snapshots/source-bf3affc1.probe.json");

describe("gate with a snapshot read from source as the candidate", () => {
  it("checks the tools by name, leaves what names cannot show unchecked rather than failed, and never calls it a probe", async () => {
    const prepared = await prepareGate({ contract, recordings });
    const candidate = await acquireCandidate({ sourceSnapshot: source });
    expect(candidate.origin).toBe("source");
    const report = judgeCandidate(prepared, candidate);
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.check!.items.filter((i) => i.kind === "tool").every((i) => i.status === "passed")).toBe(true);
    expect(report.skipped.filter((i) => i.kind === "argv").map((i) => i.message)).toContain(
      "driver CLI not checked: manifest (read from source, whose roster names no CLI)",
    );
    expect(report.recordingsNote).toBe(
      `${prepared.calls.length} recorded call(s) not checked: the candidate was read from source, which names the tools only (their schemas are unknown)`,
    );
    expect(report.diff!.changes.map((c) => `${c.severity} ${c.message}`)).toEqual([
      "additive find_credentials: tool is new",
      "additive type_secret: tool is new",
    ]);
    const text = renderGate(report);
    expect(text.split("\n")[0]).toMatch(
      /^gate: cua-driver \(version unknown\) \(read from source trycua\/cua@bf3affc1, not a probe of a binary: source:trycua\/cua@bf3affc1/,
    );
    expect(text).toContain("snapshot: read from source (");
    expect(text).not.toContain("recording:tools-list-missing");
    expect(text).toContain("ok: the roster read from source lists every tool this contract names");
  });

  it("a tool the roster lacks fails as it would for a probe", async () => {
    const prepared = await prepareGate({ contract });
    const candidate = await acquireCandidate({ sourceSnapshot: source });
    candidate.snapshot.list_tools = candidate.snapshot.list_tools!.filter((n) => n !== "click");
    const report = judgeCandidate(prepared, candidate);
    expect(report.ok).toBe(false);
    expect(report.failures.map((f) => f.id)).toContain("contract:tool:click");
  });

  it("refuses a snapshot that was not read from source, and a second candidate", async () => {
    await expect(acquireCandidate({ sourceSnapshot: path.join(root, "contracts/snapshots/sdk-0.28.2.probe.json") })).rejects.toMatchObject({
      code: "BAD_SNAPSHOT",
      message: expect.stringContaining('was not read from source (its driver.source is "sdk")'),
    });
    await expect(acquireCandidate({ sourceSnapshot: source, sdk: "0.28.2" })).rejects.toMatchObject({ code: "USAGE" });
  });

  it("gate --matrix: one row per source snapshot after the published versions, never the version to bump to", async () => {
    const report = await runMatrix({
      contract,
      recordings,
      matrix: "0.24.0,0.28.2",
      snapshots: path.join(root, "contracts/snapshots"),
      cacheRoot: mkdtempSync(path.join(os.tmpdir(), "cua-source-matrix-")),
      verdictCache: false,
      sourceSnapshots: [source],
    });
    expect(report.rows.map((r) => [r.version, r.verdict, r.origin])).toEqual([
      ["0.24.0", "pass", "kept"],
      ["0.28.2", "fail", "kept"],
      ["source trycua/cua@bf3affc1", "pass", "source"],
    ]);
    expect(report.newestPassing).toBe("0.24.0");
    expect(renderMatrix(report)).toContain("read from source, not probed: source trycua/cua@bf3affc1");
  });
});
