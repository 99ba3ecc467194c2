/**
 * The skill pack the stand-in serves for a cua-driver ≥ 0.28: the files kept in
 * docs/reference/cua-driver-skills-named-commits/ at the commits its PROVENANCE.json names. They
 * are not the bytes a 0.28.x binary embeds (that pack was not obtained; docs/eras.md), so every
 * answer built from them is logged with their commits. Only a checkout has the folder (the npm
 * package leaves docs/reference out): elsewhere there is no pack, and the replay says so.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SkillFile, SkillPack } from "./skills.js";

/** The files 0.28.0 – 0.28.2 embed, in their `FILES` order (PR #3609; verify-modern.mjs at 4d6f4a55). */
export const FILES_0_28 = ["BROWSER.md", "EMBEDDING.md", "LINUX.md", "MACOS.md", "README.md", "RECORDING.md", "SKILL.md", "WINDOWS.md"] as const;

const FOLDER = fileURLToPath(new URL("../../../docs/reference/cua-driver-skills-named-commits/", import.meta.url));

interface ProvenanceFile {
  name: string;
  commit: string | null;
  served_in_its_place?: { commit: string; frontmatter?: Record<string, unknown> };
}

/** The reference pack, or undefined when this installation does not hold it. */
export function loadReferenceSkillPack(folder = FOLDER): (SkillPack & { where: string }) | undefined {
  const provenancePath = `${folder}PROVENANCE.json`;
  if (!existsSync(provenancePath)) return undefined;
  const provenance = JSON.parse(readFileSync(provenancePath, "utf8")) as { files: ProvenanceFile[] };
  const files: SkillFile[] = [];
  let frontmatter: Record<string, unknown> | undefined;
  for (const name of FILES_0_28) {
    const record = provenance.files.find((f) => f.name === name);
    const commit = record?.commit ?? record?.served_in_its_place?.commit;
    const path = `${folder}cua-driver/${name}`;
    if (!record || !commit || !existsSync(path)) return undefined;
    if (name === "SKILL.md") frontmatter = record.served_in_its_place?.frontmatter;
    const bytes = readFileSync(path);
    files.push({
      name,
      text: bytes.toString("utf8"),
      size: bytes.length,
      digest: `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
      source: `trycua/cua@${commit.slice(0, 8)}`,
    });
  }
  if (!frontmatter) return undefined;
  return { files, frontmatter, where: "docs/reference/cua-driver-skills-named-commits" };
}
