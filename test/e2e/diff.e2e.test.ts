import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const list = (v: string) => `test/fixtures/tool-lists/tools-list-${v}.json`;

describe("diff", () => {
  it("exits 0 with no differences between 0.21.0 and 0.22.0, and with only cosmetic ones to 0.22.2", async () => {
    const none = await runCliInProcess(["diff", list("0.21.0"), list("0.22.0"), "--json"]);
    expect(none.exitCode).toBe(0);
    expect(JSON.parse(String(none.stdout))).toMatchObject({ ok: true, changes: [] });
    const cosmetic = await runCliInProcess(["diff", list("0.21.0"), list("0.22.2")]);
    expect(cosmetic.exitCode).toBe(0);
    expect(cosmetic.stdout).toContain("0 breaking, 0 behavioural, 0 additive, 2 cosmetic");
  });

  it("exits 1 on 0.21.0 → 0.28.2 and lists the idempotentHint flip with severity, kind, tool, path, from, to", async () => {
    const r = await runCliInProcess(["diff", list("0.21.0"), list("0.28.2"), "--json"]);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.changes).toContainEqual({
      severity: "behavioural",
      kind: "annotation_changed",
      tool: "get_window_state",
      path: "/annotations/idempotentHint",
      from: true,
      to: false,
      message: "get_window_state: idempotentHint changed true → false",
    });
  });

  it("shows the modern MCP era, its skill and resources as added from the 0.21.0 snapshot to a 0.28.2 probe", async () => {
    await using dir = await tmpDir();
    const saved = path.join(dir.path, "probe-0.28.2.json");
    const probe = await runCliInProcess(["probe", "--driver", "sdk:0.28.2", "--save", saved]);
    expect(probe.exitCode).toBe(0);
    expect(probe.stdout).toMatch(/^ {2}ok {3}mcp_discover /m);
    expect(probe.stdout).toContain("MCP eras legacy + 2026-07-28, 1 skill(s), 8 resource(s)");
    const snapshot = JSON.parse(await readFile(saved, "utf8"));
    expect(snapshot.mcp_eras).toEqual(["legacy", "2026-07-28"]);
    expect(snapshot.discover.supportedVersions).toEqual(["2026-07-28"]);
    expect(snapshot.skills.resources).toContainEqual({
      uri: "skill://cua-driver/LINUX.md",
      size: expect.any(Number),
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    const r = await runCliInProcess(["diff", "contracts/snapshots/sdk-0.21.0.probe.json", saved, "--json"]);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.changes).toContainEqual({ severity: "additive", kind: "era_added", path: "/mcp_eras", to: "2026-07-28", message: "MCP era 2026-07-28 is new" });
    expect(doc.changes.filter((c: { kind: string }) => c.kind === "resource_added")).toHaveLength(8);
    expect(doc.changes.filter((c: { kind: string; severity: string }) => c.kind.startsWith("era_") && c.severity !== "additive")).toEqual([]);
    const back = await runCliInProcess(["diff", saved, "contracts/snapshots/sdk-0.21.0.probe.json"]);
    expect(back.stdout).toContain("breaking    MCP era 2026-07-28 is gone  (/mcp_eras)");
  });

  it("compares a snapshot with a tools/list result, and names a file that is neither (exit 2)", async () => {
    const mixed = await runCliInProcess(["diff", "contracts/drivers/cua-driver-0.21.0.probe.json.gz", list("0.21.0")]);
    expect(mixed.exitCode).toBe(0);
    await using dir = await tmpDir();
    const bad = path.join(dir.path, "x.json");
    await writeFile(bad, JSON.stringify({ tools: [{ description: "no name" }] }));
    const r = await runCliInProcess(["diff", bad, list("0.21.0")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${bad}: tools.0.name: diff input is not a valid tools/list result`);
  });

  it("reads a gzip-compressed snapshot like its plain JSON, and names a corrupt one with the fix (exit 2)", async () => {
    const gz = "contracts/drivers/cua-driver-0.21.0.probe.json.gz";
    await using dir = await tmpDir();
    const plain = path.join(dir.path, "plain.probe.json");
    await writeFile(plain, gunzipSync(await readFile(gz)), { mode: 0o600 });
    const same = await runCliInProcess(["diff", gz, plain, "--json"]);
    expect(same.exitCode).toBe(0);
    expect(JSON.parse(String(same.stdout))).toMatchObject({ ok: true, changes: [] });
    const corrupt = path.join(dir.path, "corrupt.probe.json.gz");
    await writeFile(corrupt, (await readFile(gz)).subarray(0, 500), { mode: 0o600 });
    const r = await runCliInProcess(["diff", corrupt, plain]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${corrupt}: diff input is not valid gzip data`);
    expect(r.stderr).toContain("gzip -k FILE.json");
  });

  it("diffs a cassette without probe.json by the tools/list answer it recorded, and names a cassette that has neither (exit 2)", async () => {
    const r = await runCliInProcess(["diff", "test/fixtures/cassettes/replay-mcp-gtk", list("0.21.0"), "--json"]);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.from).toEqual({ version: "0.21.0", source: "synthetic (tools/list recorded in test/fixtures/cassettes/replay-mcp-gtk)" });
    // The binary's tools/list (recorded) carries the CLI-host tool the runtime's list lacks.
    expect(doc.changes.map((c: { message: string }) => c.message)).toEqual(["check_for_update: tool is gone"]);
    const none = await runCliInProcess(["diff", "test/fixtures/cassettes/replay-cli-gtk", list("0.21.0")]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe(
      "cua-contract: test/fixtures/cassettes/replay-cli-gtk: the cassette has no probe.json and no recorded tools/list answer to compare. Record it again with a current cua-contract (record stores probe.json unless --no-probe), or probe the driver that made it: `cua-contract probe --driver … --save FILE`, and diff that.",
    );
  });
});
