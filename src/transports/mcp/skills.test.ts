import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FILES_0_28, loadReferenceSkillPack } from "./skill-pack.js";
import { SKILL_URI, skillResult } from "./skills.js";

// The cases of mcp_skills.rs's own tests (trycua/cua 4eb8ab51), over the reference pack.
const pack = loadReferenceSkillPack()!;
const ok = (method: string, params?: unknown) => {
  const r = skillResult(pack, method, params);
  if ("refusal" in r) throw new Error(r.refusal);
  return JSON.parse(r.raw) as Record<string, any>;
};
const refusal = (method: string, params?: unknown) => {
  const r = skillResult(pack, method, params);
  return "refusal" in r ? r.refusal : undefined;
};

describe("Skills-over-MCP answers", () => {
  it("manifest_matches_every_raw_embedded_resource", () => {
    const listed = ok("skills/list");
    expect(listed.skills).toHaveLength(1);
    const entry = listed.skills[0];
    expect(entry.uri).toBe(SKILL_URI);
    expect(ok("skills/get", { uri: SKILL_URI }).skill).toEqual(entry);
    expect(entry.frontmatter).toMatchObject({ name: "cua-driver" });
    const resources = ok("resources/list", {}).resources as { uri: string; name: string; size: number }[];
    expect(resources.map((r) => r.uri)).toEqual(FILES_0_28.map((n) => `skill://cua-driver/${n}`));
    expect(resources.find((r) => r.uri === SKILL_URI)).toMatchObject({
      name: "cua-driver",
      mimeType: "text/markdown",
      description: entry.frontmatter.description,
    });
    for (const [i, name] of FILES_0_28.entries()) {
      const bytes = readFileSync(new URL(`../../../docs/reference/cua-driver-skills-named-commits/cua-driver/${name}`, import.meta.url));
      expect(entry.resources[i]).toMatchObject({ uri: `skill://cua-driver/${name}`, size: bytes.length });
      expect(entry.resources[i].digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const read = ok("resources/read", { uri: `skill://cua-driver/${name}` });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0].mimeType).toBe("text/markdown");
      expect(Buffer.from(read.contents[0].text, "utf8").equals(bytes)).toBe(true);
    }
    // keys in serde_json's order
    expect(Object.keys(entry)).toEqual(["frontmatter", "resources", "uri"]);
    expect(Object.keys(entry.resources[0])).toEqual(["digest", "size", "uri"]);
  });

  it("uri_allowlist_rejects_aliases_traversal_and_foreign_resources", () => {
    for (const uri of [
      "skill://cua-driver",
      "skill://cua-driver/",
      "skill://cua-driver/unknown.md",
      "skill://cua-driver/../SKILL.md",
      "skill://cua-driver/%53KILL.md",
      "skill://cua-driver/SKILL.md?query=1",
      "skill://cua-driver/SKILL.md#fragment",
      "skill://cua-driver/SKILL.md/",
      "skill://cua-driver//SKILL.md",
      "skill://cua-driver/skill.md",
      "skill://CUA-DRIVER/SKILL.md",
      "file:///etc/passwd",
      "skill://cua-driver/VISUAL.md",
    ]) {
      expect(refusal("resources/read", { uri })).toBe("unknown resource URI");
      expect(refusal("skills/get", { uri })).toBe("unknown skill URI");
    }
    expect(refusal("skills/get", { uri: "skill://cua-driver/BROWSER.md" })).toBe("unknown skill URI");
  });

  it("malformed_params_and_cursors_are_invalid", () => {
    for (const method of ["skills/list", "skills/get", "resources/list", "resources/read"]) {
      for (const params of [1, [], "invalid"]) expect(refusal(method, params)).toBe("params must be an object");
      for (const cursor of ["next", "", null, 5]) expect(refusal(method, { uri: SKILL_URI, cursor })).toBe("this resource catalog has no continuation cursor");
    }
    for (const method of ["skills/get", "resources/read"]) {
      for (const params of [undefined, {}, { uri: 7 }]) expect(refusal(method, params)).toBe("uri must be a string");
    }
  });
});
