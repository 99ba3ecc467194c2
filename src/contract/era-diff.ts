/**
 * The MCP eras and the skill catalogue of two driver surfaces, compared (docs/probe.md): an era or
 * a skill resource going away is breaking, one appearing additive, a resource whose digest changed
 * behavioural (its bytes are not the ones a harness read before).
 */
import { FIRST_MODERN_RELEASE } from "#src/driver/reference-version.js";
import type { ProbeSnapshot, SkillCatalogue } from "#src/schema/probe-snapshot.js";
import { satisfies } from "#src/util/versions.js";
import type { Change } from "./change.js";

/** Drivers before this release answer `server/discover` with -32601: legacy only (docs/eras.md). */
export { FIRST_MODERN_RELEASE };

/** What a surface says of eras: the recorded list, or legacy-only read off a version before 0.28. */
export interface SurfaceEras {
  eras: string[];
  /** True when read off the version rather than recorded by a probe. */
  inferred: boolean;
}

/**
 * The eras of a snapshot: as the probe recorded them, else `legacy` alone for a driver that
 * speaks MCP at a version before the modern era, else unknown.
 */
export function erasOf(options: { recorded: string[] | undefined; version: string | null; speaksMcp: boolean }): SurfaceEras | undefined {
  if (options.recorded) return { eras: options.recorded, inferred: false };
  if (!options.speaksMcp || options.version === null) return undefined;
  if (satisfies(options.version, `>=${FIRST_MODERN_RELEASE}`)) return undefined;
  return { eras: ["legacy"], inferred: true };
}

/** `erasOf` a probe snapshot: it speaks MCP when `initialize` or the runtime's metadata named a protocol version. */
export function erasOfSnapshot(snapshot: ProbeSnapshot): SurfaceEras | undefined {
  const protocol = snapshot.initialize?.protocolVersion ?? snapshot.metadata?.mcpProtocolVersion;
  return erasOf({ recorded: snapshot.mcp_eras, version: snapshot.driver.version, speaksMcp: protocol !== undefined });
}

export function diffEras(a: readonly string[], b: readonly string[]): Change[] {
  return [
    ...a
      .filter((era) => !b.includes(era))
      .map((era): Change => ({ severity: "breaking", kind: "era_removed", path: "/mcp_eras", from: era, message: `MCP era ${era} is gone` })),
    ...b
      .filter((era) => !a.includes(era))
      .map((era): Change => ({ severity: "additive", kind: "era_added", path: "/mcp_eras", to: era, message: `MCP era ${era} is new` })),
  ];
}

export function diffSkills(a: SkillCatalogue, b: SkillCatalogue): Change[] {
  const out: Change[] = [];
  const skillsB = new Set(b.skills.map((s) => s.uri));
  const skillsA = new Set(a.skills.map((s) => s.uri));
  for (const s of a.skills)
    if (!skillsB.has(s.uri)) out.push({ severity: "breaking", kind: "skill_removed", path: "/skills", from: s.uri, message: `skill ${s.uri} is gone` });
  for (const s of b.skills)
    if (!skillsA.has(s.uri)) out.push({ severity: "additive", kind: "skill_added", path: "/skills", to: s.uri, message: `skill ${s.uri} is new` });
  const byUri = new Map(b.resources.map((r) => [r.uri, r]));
  const urisA = new Set(a.resources.map((r) => r.uri));
  for (const r of a.resources) {
    const other = byUri.get(r.uri);
    if (!other) {
      out.push({ severity: "breaking", kind: "resource_removed", path: "/skills/resources", from: r.uri, message: `skill resource ${r.uri} is gone` });
    } else if (r.digest !== undefined && other.digest !== undefined && r.digest !== other.digest) {
      out.push({
        severity: "behavioural",
        kind: "digest_changed",
        path: resourcePointer(r.uri),
        from: r.digest,
        to: other.digest,
        message: `skill resource ${r.uri} changed: ${r.digest} → ${other.digest}`,
      });
    }
  }
  for (const r of b.resources) {
    if (!urisA.has(r.uri))
      out.push({ severity: "additive", kind: "resource_added", path: "/skills/resources", to: r.uri, message: `skill resource ${r.uri} is new` });
  }
  return out;
}

/** The JSON pointer of one skill resource (`/skills/resources/<uri>`, `~` and `/` escaped). */
export function resourcePointer(uri: string): string {
  return `/skills/resources/${uri.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** The resource URI a `digest_changed` change names, read back from its pointer. */
export function resourceOfPointer(path: string | undefined): string | undefined {
  const m = /^\/skills\/resources\/([^/]+)$/.exec(path ?? "");
  return m ? m[1]!.replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
}
