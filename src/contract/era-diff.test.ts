import { describe, expect, it } from "vitest";
import type { ProbeSnapshot, SkillCatalogue } from "#src/schema/probe-snapshot.js";
import { FIRST_MODERN_RELEASE as ERA_MODULE_FIRST_MODERN } from "#src/transports/mcp/era.js";
import { checkContract } from "./check.js";
import { diffSurfaces } from "./diff.js";
import { FIRST_MODERN_RELEASE, diffEras, diffSkills } from "./era-diff.js";
import { surfaceOfSnapshot } from "./surface.js";

const skill = (digest = "sha256:aa"): SkillCatalogue => ({
  skills: [{ uri: "skill://cua-driver/SKILL.md", name: "cua-driver" }],
  resources: [
    { uri: "skill://cua-driver/SKILL.md", size: 10, digest },
    { uri: "skill://cua-driver/LINUX.md", size: 5, digest: "sha256:bb" },
  ],
});

function snapshot(version: string, extra: Partial<ProbeSnapshot> = {}): ProbeSnapshot {
  return {
    format: "cua-probe",
    version: 1,
    probed_at: "2026-01-01T00:00:00.000Z",
    driver: { source: "sdk", location: `sdk:@trycua/cua-driver@${version}`, platform: "linux-x64", version },
    steps: [{ step: "metadata", status: "succeeded", duration_ms: 0 }],
    metadata: { driverVersion: version, mcpProtocolVersion: "2025-06-18" },
    tools_list: { tools: [] },
    ...extra,
  };
}
const modern = (version: string, catalogue = skill()) =>
  snapshot(version, { mcp_eras: ["legacy", "2026-07-28"], discover: { supportedVersions: ["2026-07-28"] }, skills: catalogue });
const kinds = (a: ProbeSnapshot, b: ProbeSnapshot) =>
  diffSurfaces(surfaceOfSnapshot(a), surfaceOfSnapshot(b)).changes.map((c) => `${c.severity} ${c.kind} ${String(c.from ?? c.to)}`);

describe("eras and skills in diff", () => {
  it("knows the first modern release as the MCP transport does", () => {
    expect(FIRST_MODERN_RELEASE).toBe(ERA_MODULE_FIRST_MODERN);
  });

  it("classes an era going away as breaking and one appearing as additive", () => {
    expect(diffEras(["legacy", "2026-07-28"], ["legacy"])).toMatchObject([{ severity: "breaking", kind: "era_removed", from: "2026-07-28" }]);
    expect(diffEras(["legacy"], ["legacy", "2026-07-28"])).toMatchObject([{ severity: "additive", kind: "era_added", to: "2026-07-28" }]);
    expect(diffEras(["legacy"], ["legacy"])).toEqual([]);
  });

  it("classes a skill or resource going away as breaking, a changed digest as behavioural, a new one as additive", () => {
    const gone: SkillCatalogue = { skills: [], resources: [{ uri: "skill://cua-driver/LINUX.md", size: 5, digest: "sha256:bb" }] };
    expect(diffSkills(skill(), gone).map((c) => `${c.severity} ${c.kind} ${String(c.from)}`)).toEqual([
      "breaking skill_removed skill://cua-driver/SKILL.md",
      "breaking resource_removed skill://cua-driver/SKILL.md",
    ]);
    expect(diffSkills(skill("sha256:aa"), skill("sha256:cc"))).toEqual([
      {
        severity: "behavioural",
        kind: "digest_changed",
        path: "/skills/resources/skill:~1~1cua-driver~1SKILL.md",
        from: "sha256:aa",
        to: "sha256:cc",
        message: "skill resource skill://cua-driver/SKILL.md changed: sha256:aa → sha256:cc",
      },
    ]);
    expect(diffSkills(gone, skill()).map((c) => `${c.severity} ${c.kind}`)).toEqual(["additive skill_added", "additive resource_added"]);
  });

  it("reads a snapshot before 0.28 without eras as legacy only, so the modern era of a newer one is additive", () => {
    expect(kinds(snapshot("0.21.0"), modern("0.28.2"))).toEqual([
      "additive era_added 2026-07-28",
      "additive skill_added skill://cua-driver/SKILL.md",
      "additive resource_added skill://cua-driver/SKILL.md",
      "additive resource_added skill://cua-driver/LINUX.md",
    ]);
    expect(kinds(modern("0.28.2"), snapshot("0.21.0"))[0]).toBe("breaking era_removed 2026-07-28");
  });

  it("compares nothing, and says nothing, when neither side recorded eras (every stored snapshot)", () => {
    const d = diffSurfaces(surfaceOfSnapshot(snapshot("0.21.0")), surfaceOfSnapshot(snapshot("0.28.2")));
    expect(d.changes).toEqual([]);
    expect(d.notes).toEqual([]);
  });

  it("notes what it could not compare when only one side recorded eras", () => {
    const d = diffSurfaces(surfaceOfSnapshot(modern("0.28.2")), surfaceOfSnapshot(snapshot("0.28.2")));
    expect(d.changes).toEqual([]);
    expect(d.notes).toEqual(["MCP eras not compared: the second side did not record them", "skills not compared: the second side has no skill catalogue"]);
  });
});

describe("eras and skills a contract names", () => {
  const contract = (extra: object = {}) => ({
    format: "cua-driver-contract" as const,
    version: 1 as const,
    name: "c",
    driver: { versions: "0.28.x", mcp_eras: ["2026-07-28"] },
    tools: {},
    skills: { "skill://cua-driver/SKILL.md": { digest: "sha256:aa" }, "skill://cua-driver/LINUX.md": {} },
    ...extra,
  });
  const items = (s: ProbeSnapshot) =>
    checkContract({ snapshot: s, contract: contract() })
      .items.filter((i) => i.kind !== "version")
      .map((i) => `${i.status} ${i.id}`);

  it("passes an era and the skills that are there with the pinned digest", () => {
    expect(items(modern("0.28.2"))).toEqual([
      "passed contract:mcp_era:2026-07-28",
      "passed contract:skill:skill://cua-driver/SKILL.md",
      "passed contract:skill_digest:skill://cua-driver/SKILL.md",
      "passed contract:skill:skill://cua-driver/LINUX.md",
    ]);
  });

  it("fails an era that is gone, a resource that is gone and a pinned digest that changed", () => {
    const changed = modern("0.28.3", { skills: [], resources: [{ uri: "skill://cua-driver/SKILL.md", size: 11, digest: "sha256:cc" }] });
    changed.mcp_eras = ["legacy"];
    expect(items(changed)).toEqual([
      "failed contract:mcp_era:2026-07-28",
      "passed contract:skill:skill://cua-driver/SKILL.md",
      "failed contract:skill_digest:skill://cua-driver/SKILL.md",
      "failed contract:skill:skill://cua-driver/LINUX.md",
    ]);
  });

  it("fails them against a driver before 0.28, and leaves them unverified when the probe did not ask", () => {
    expect(items(snapshot("0.21.0"))).toEqual([
      "failed contract:mcp_era:2026-07-28",
      "failed contract:skill:skill://cua-driver/SKILL.md",
      "failed contract:skill:skill://cua-driver/LINUX.md",
    ]);
    expect(items(snapshot("0.28.2")).map((i) => i.split(" ")[0])).toEqual(["unverified", "unverified", "unverified"]);
  });
});
