/**
 * The eras and skill resources a driver contract names, checked against a probe snapshot: an era
 * or a resource that is not there fails, a pinned digest that differs fails, and a snapshot whose
 * probe did not ask for them leaves the items unverified.
 */
import type { DriverContract } from "#src/schema/driver-contract.js";
import type { ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import { erasOfSnapshot } from "./era-diff.js";

type Push = (kind: "mcp_era" | "skill" | "skill_digest", name: string, status: "passed" | "failed" | "unverified", message: string) => void;

/** Whether a contract names MCP eras or skill resources: only then does a snapshot need the probe's era steps. */
export function namesErasOrSkills(contract: DriverContract): boolean {
  return Boolean(contract.driver.mcp_eras?.length) || Object.keys(contract.skills ?? {}).length > 0;
}

export function checkErasAndSkills(options: { contract: DriverContract; snapshot: ProbeSnapshot; push: Push; unseen: string }): void {
  const { contract, snapshot, push } = options;
  const eras = erasOfSnapshot(snapshot);
  for (const era of contract.driver.mcp_eras ?? []) {
    if (!eras) push("mcp_era", era, "unverified", `MCP era ${era} not checked: ${options.unseen}`);
    else if (eras.eras.includes(era)) push("mcp_era", era, "passed", `driver speaks MCP era ${era}`);
    else push("mcp_era", era, "failed", `driver does not speak MCP era ${era} (it speaks ${eras.eras.join(", ") || "none"})`);
  }
  const resources = snapshot.skills ? new Map(snapshot.skills.resources.map((r) => [r.uri, r])) : undefined;
  const skills = new Set(snapshot.skills?.skills.map((s) => s.uri) ?? []);
  const noModern = eras !== undefined && !eras.eras.some((e) => e !== "legacy");
  for (const [uri, need] of Object.entries(contract.skills ?? {})) {
    if (!resources && !noModern) {
      push("skill", uri, "unverified", `skill ${uri} not checked: ${options.unseen}`);
      continue;
    }
    const found = resources?.get(uri);
    if (!found && !skills.has(uri)) {
      push("skill", uri, "failed", `driver does not serve skill resource ${uri}`);
      continue;
    }
    push("skill", uri, "passed", `driver serves ${uri}`);
    if (need.digest === undefined) continue;
    if (found?.digest === undefined) push("skill_digest", uri, "unverified", `${uri}: digest not checked (the probe saw none)`);
    else if (found.digest === need.digest) push("skill_digest", uri, "passed", `${uri}: digest is ${need.digest}`);
    else push("skill_digest", uri, "failed", `${uri}: digest changed ${need.digest} → ${found.digest}`);
  }
}
