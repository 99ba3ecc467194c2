import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { validateFaultPlan } from "./parse-plan.js";
import { FAULT_PROFILES, faultProfile } from "./profiles.js";
import { createFaultSelector } from "./select.js";

/** A long harness run's tool calls: looks, clicks, typing and screenshots, in a fixed order, with one 10-minute pause. */
const CALLS = Array.from({ length: 400 }, (_, i) => {
  const tools = ["get_window_state", "click", "type_text", "get_desktop_state", "double_click", "list_windows"] as const;
  const tool = tools[i % tools.length]!;
  return {
    tool,
    kind: tool.startsWith("get_") || tool === "list_windows" ? ("read" as const) : ("mutation" as const),
    tMs: i * 1000 + (i >= 200 ? 600_000 : 0),
  };
});

function run(name: string, seed: number): string[] {
  const selector = createFaultSelector({ plan: faultProfile(name)!.plan, seed });
  return CALLS.map((c) => {
    const f = selector.next({ ...c, transport: "mcp", stream: 0 });
    return f ? `${f.rule}:${JSON.stringify(f.fault)}` : "-";
  });
}

describe("fault profiles", () => {
  it("each is a valid plan, cites a public source, and is documented in docs/faults.md with its sources", () => {
    const docs = readFileSync(path.join(repoRoot, "docs/faults.md"), "utf8");
    expect(FAULT_PROFILES.length).toBeGreaterThanOrEqual(6);
    for (const p of FAULT_PROFILES) {
      expect(validateFaultPlan({ data: p.plan, file: `profile:${p.name}` })).toEqual(p.plan);
      expect(p.sources.length, p.name).toBeGreaterThan(0);
      for (const url of p.sources) expect(url).toMatch(/^https:\/\/github\.com\/trycua\/cua\//);
      expect(docs, p.name).toContain(`\`profile:${p.name}\``);
      for (const url of p.sources) expect(docs, `${p.name} source`).toContain(url);
    }
  });

  it("each replays identically by seed, another seed draws other faults, and every kind it bundles fires", () => {
    for (const p of FAULT_PROFILES) {
      const a = run(p.name, 7);
      expect(run(p.name, 7), p.name).toEqual(a);
      const kinds = new Set(p.plan.rules.map((r) => r.fault.kind));
      const seen = new Set(
        [1, 2, 3, 4, 5, 6, 7, 8]
          .flatMap((seed) => run(p.name, seed))
          .map((s) => (s === "-" ? "-" : (JSON.parse(s.slice(s.indexOf(":") + 1)) as { kind: string }).kind)),
      );
      for (const kind of kinds) expect(seen.has(kind), `${p.name}: ${kind}`).toBe(true);
      if (p.plan.rules.some((r) => r.match.probability !== undefined)) expect(run(p.name, 8), p.name).not.toEqual(a);
    }
  });

  it("a late refusal's delay lies in the field's 13-26 s", () => {
    const delays = run("osworld-late-refusal", 3)
      .filter((s) => s !== "-")
      .map((s) => (JSON.parse(s.slice(s.indexOf(":") + 1)) as { delay: { ms: number } }).delay.ms);
    expect(delays.length).toBeGreaterThan(10);
    for (const ms of delays) expect(ms >= 13_000 && ms <= 26_000, String(ms)).toBe(true);
    expect(new Set(delays).size).toBeGreaterThan(5);
  });
});
