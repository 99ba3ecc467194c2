import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";

// Each subpath in package.json "exports" resolves from the built package and carries its names.
const EXPECTED: Record<string, string[]> = {
  "cua-contract": ["runInvariants", "runGate", "probeSdk", "writeReport", "importTrajectory", "UserError"],
  "cua-contract/harness": ["createHarnessSession", "classifyActionResult", "checkKeyCombo", "screenChange", "createCliDriver", "systemClock", "loadSdk"],
  "cua-contract/replay": ["createReplayer", "prepareReplayCassette", "readCassette", "parseFaultPlan", "FaultPlanSchema"],
  "cua-contract/msw": ["cassetteHandlers"],
  "cua-contract/testing": ["scriptedDriver", "createVirtualClock", "startDesktop"],
};
// `cua-contract/vitest` imports vitest itself, so it is loaded inside a vitest run: src/vitest/vitest.test.ts
// and examples/vitest/ import it by that name.

describe("package exports", () => {
  it.each(Object.entries(EXPECTED))("%s resolves and exports its names", async (specifier, names) => {
    const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m)));`;
    const r = await execa(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expect.arrayContaining(names));
  });

  it("cua-contract/vitest resolves to the built module (vitest is an optional peer)", async () => {
    const script = `console.log(import.meta.resolve("cua-contract/vitest"));`;
    const r = await execa(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\/dist\/public\/vitest\.js$/);
    const pkg = JSON.parse(await import("node:fs/promises").then((fs) => fs.readFile(`${repoRoot}/package.json`, "utf8"))) as {
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    expect(pkg.peerDependenciesMeta.vitest?.optional).toBe(true);
  });

  it("a scripted driver answers in order and logs the calls", async () => {
    const script = `
      import { scriptedDriver, createVirtualClock } from "cua-contract/testing";
      const d = scriptedDriver({ list_windows: [{ content: [], structuredContent: { windows: [] } }, { kind: "timeout", tool: "list_windows" }] });
      const a = await d.call("list_windows", {}); const b = await d.call("list_windows", {}); const c = await d.call("list_windows", {});
      const clock = createVirtualClock(); await clock.sleep(120000);
      console.log(JSON.stringify({ a: a.structuredContent, b: b.kind, c: c.kind, tools: d.tools(), now: clock.now() }));`;
    const r = await execa(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      a: { windows: [] },
      b: "timeout",
      c: "timeout",
      tools: ["list_windows", "list_windows", "list_windows"],
      now: 120000,
    });
  });
});
