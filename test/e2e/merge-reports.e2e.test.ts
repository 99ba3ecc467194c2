import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { esc } from "#src/report/html/escape.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "cua-merge-reports-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// a broken variant of the reference harness, so the campaign has failures to shrink and merge
const campaign = ["fuzz", "--harness", "resend-timed-out-click", "--runs", "45", "--seed", "7", "--json"];
/** JUnit without the times (each run's wall time differs from run to run). */
const untimed = (xml: string) => xml.replace(/ time="[^"]*"/g, "").replace(/ timestamp="[^"]*"/g, "");

describe("fuzz --shard i/n --blob DIR, then merge-reports", () => {
  it("gives the unsharded campaign's verdict, JSON document and JUnit file", { timeout: 120_000 }, async () => {
    const whole = await runCliInProcess([...campaign, "--junit", path.join(tmp, "whole.xml")]);
    expect(whole.exitCode, whole.stderr).toBe(1);
    const blobs = path.join(tmp, "blobs");
    for (const i of [1, 2, 3]) {
      const shard = await runCliInProcess([...campaign, "--shard", `${i}/3`, "--blob", blobs]);
      expect([0, 1]).toContain(shard.exitCode);
    }
    const merged = await runCliInProcess(["merge-reports", blobs, "--json", "--junit", path.join(tmp, "merged.xml")]);
    expect(merged.exitCode, merged.stderr).toBe(1);
    const doc = JSON.parse(merged.stdout);
    expect(doc.failures.length).toBeGreaterThan(0);
    expect(doc).toEqual(JSON.parse(whole.stdout));
    expect(doc.failures[0].reproduce).toContain("--seed");
    expect(untimed(readFileSync(path.join(tmp, "merged.xml"), "utf8"))).toBe(untimed(readFileSync(path.join(tmp, "whole.xml"), "utf8")));
  });

  it("names a missing shard and exits 2", async () => {
    const blobs = path.join(tmp, "partial");
    await runCliInProcess([...campaign, "--shard", "1/3", "--blob", blobs]);
    await runCliInProcess([...campaign, "--shard", "3/3", "--blob", blobs]);
    const r = await runCliInProcess(["merge-reports", blobs]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("shard 2/3 missing");
  });

  it("refuses blobs of two campaigns (another seed) and a blob without --shard", async () => {
    const a = path.join(tmp, "a");
    const b = path.join(tmp, "b");
    await runCliInProcess([...campaign, "--shard", "1/2", "--blob", a]);
    await runCliInProcess(["fuzz", "--harness", "resend-timed-out-click", "--runs", "45", "--seed", "8", "--shard", "2/2", "--blob", b]);
    const r = await runCliInProcess(["merge-reports", a, b]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/has seed 8, .* has 7: they are not shards of one campaign/);
    const unsharded = await runCliInProcess([...campaign, "--blob", path.join(tmp, "c")]);
    expect(unsharded.exitCode).toBe(2);
    expect(unsharded.stderr).toContain("it needs --shard i/n");
  });
});

describe("check --shard i/n --blob DIR, then merge-reports", () => {
  const timeless = (doc: unknown): unknown => JSON.parse(JSON.stringify(doc, (k, v) => (k === "duration_ms" ? undefined : v)));

  it("gives the unsharded check's result: every scenario in the set's order, the same verdict", { timeout: 120_000 }, async () => {
    const check = ["check", "--harness", "resend-timed-out-click", "--json"];
    const whole = await runCliInProcess(check);
    expect(whole.exitCode, whole.stderr).toBe(1);
    const blobs = path.join(tmp, "check-blobs");
    for (const i of [1, 2, 3]) await runCliInProcess([...check, "--shard", `${i}/3`, "--blob", blobs]);
    const html = path.join(tmp, "check.html");
    const merged = await runCliInProcess(["merge-reports", blobs, "--json", "--html", html]);
    expect(merged.exitCode, merged.stderr).toBe(1);
    const doc = JSON.parse(merged.stdout);
    expect(doc.failed).toBeGreaterThan(0);
    expect(timeless(doc)).toEqual(timeless(JSON.parse(whole.stdout)));
    const report = readFileSync(html, "utf8");
    for (const s of doc.scenarios) expect(report).toContain(esc(s.title));
    expect(report).toContain(`Failures (`);
  });
});
