/**
 * Skills-over-MCP as cua-driver ≥ 0.28 answers it (`mcp_skills.rs`, trycua/cua 4eb8ab51 lines
 * 60-185): one skill, `skill://cua-driver/SKILL.md`, whose resources are the pack's Markdown
 * files. `skills/list`, `skills/get`, `resources/list`, `resources/read`, in either era; every
 * refusal is `-32602` without data. Pure: the pack comes in with each file's size and digest.
 */
import { canonicalJson } from "#src/wire/json/canonical.js";
import { serdeString } from "#src/wire/json/string.js";

export const SKILL_METHODS: ReadonlySet<string> = new Set(["skills/list", "skills/get", "resources/list", "resources/read"]);
export const SKILL_URI_PREFIX = "skill://cua-driver/";
export const SKILL_URI = `${SKILL_URI_PREFIX}SKILL.md`;

export interface SkillFile {
  name: string;
  text: string;
  /** Byte length of the UTF-8 text (Rust `str::len`). */
  size: number;
  /** `sha256:` and the lowercase hex SHA-256 of those bytes. */
  digest: string;
  /** Where the bytes came from (`trycua/cua@<commit>`), for the replay log. */
  source: string;
}

export interface SkillPack {
  /** In the binary's `FILES` order. */
  files: readonly SkillFile[];
  /** The frontmatter of the skill's `cua-driver/SKILL.md` as JSON (what serde_yaml_ng reads). */
  frontmatter: Record<string, unknown>;
}

/** The result (raw JSON) or the refusal message of one skill method. */
export function skillResult(pack: SkillPack, method: string, params: unknown): { raw: string; file?: SkillFile } | { refusal: string } {
  if (params !== undefined && params !== null && (typeof params !== "object" || Array.isArray(params))) return { refusal: "params must be an object" };
  const p = (params ?? undefined) as Record<string, unknown> | undefined;
  if (p && "cursor" in p) return { refusal: "this resource catalog has no continuation cursor" };
  const uri = typeof p?.uri === "string" ? p.uri : undefined;
  switch (method) {
    case "skills/list":
      return { raw: `{"skills":[${entry(pack)}]}` };
    case "skills/get":
      if (uri === undefined) return { refusal: "uri must be a string" };
      if (uri !== SKILL_URI) return { refusal: "unknown skill URI" };
      return { raw: `{"skill":${entry(pack)}}` };
    case "resources/list":
      return { raw: `{"resources":[${pack.files.map((f) => resource(pack, f)).join(",")}]}` };
    case "resources/read": {
      if (uri === undefined) return { refusal: "uri must be a string" };
      const file = uri.startsWith(SKILL_URI_PREFIX) ? pack.files.find((f) => f.name === uri.slice(SKILL_URI_PREFIX.length)) : undefined;
      if (!file) return { refusal: "unknown resource URI" };
      return { raw: `{"contents":[{"mimeType":"text/markdown","text":${serdeString(file.text)},"uri":${serdeString(uri)}}]}`, file };
    }
    default:
      throw new Error(`not a skill method: ${method}`);
  }
}

// json!({"uri", "frontmatter", "resources"}) and the manifest entries, in BTreeMap order
function entry(pack: SkillPack): string {
  const manifest = pack.files.map((f) => `{"digest":${serdeString(f.digest)},"size":${f.size},"uri":${serdeString(SKILL_URI_PREFIX + f.name)}}`);
  return `{"frontmatter":${canonicalJson(pack.frontmatter)},"resources":[${manifest.join(",")}],"uri":${serdeString(SKILL_URI)}}`;
}

// the skill file's resource takes the frontmatter's name and description
function resource(pack: SkillPack, f: SkillFile): string {
  const uri = serdeString(SKILL_URI_PREFIX + f.name);
  if (f.name !== "SKILL.md") return `{"mimeType":"text/markdown","name":${serdeString(f.name)},"size":${f.size},"uri":${uri}}`;
  return `{"description":${canonicalJson(pack.frontmatter.description)},"mimeType":"text/markdown","name":${canonicalJson(pack.frontmatter.name)},"size":${f.size},"uri":${uri}}`;
}
