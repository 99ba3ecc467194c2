/**
 * The modern MCP era as the probe asks for it (docs/eras.md): `server/discover` with the
 * 2026-07-28 `_meta`, then `skills/list` and `resources/list`. A `-32601` to the discover request
 * is how a driver before 0.28 answers it: a finding (no modern era), recorded as nothing, so the
 * snapshot of such a driver is what it was. Transport-free: the caller carries each request.
 */
import { performance } from "node:perf_hooks";
import { FIRST_MODERN_RELEASE } from "#src/driver/reference-version.js";
import { satisfies } from "#src/util/versions.js";
import {
  type DiscoverResult,
  DiscoverResultSchema,
  MODERN_MCP_ERA,
  type ProbeSnapshot,
  type ProbeStepName,
  type SkillCatalogue,
} from "#src/schema/probe-snapshot.js";

/** How one probe step ended: its value, or why it failed or is unsupported. */
export type StepOutcome<T> = { status: "succeeded"; value: T; message?: string } | { status: "failed" | "unsupported"; message: string; timedOut?: boolean };

/** One request's answer as the probe reads it: a result, a JSON-RPC error, or no answer. */
export type RawAnswer = { result: unknown } | { error: { code?: unknown; message?: unknown } } | { failed: string; timedOut?: boolean };

/** Sends one request (method and params) and resolves with its answer. */
export type AskMcp = (method: string, params: Record<string, unknown>) => Promise<RawAnswer>;

/** The `_meta` that makes a request modern: the era's version and the client's (empty) capabilities. */
export const MODERN_REQUEST_META: Readonly<Record<string, unknown>> = {
  "io.modelcontextprotocol/protocolVersion": MODERN_MCP_ERA,
  "io.modelcontextprotocol/clientCapabilities": {},
};

export interface ModernEraFindings {
  /** The steps to record, in order; none when the driver has no modern era. */
  steps: { step: Extract<ProbeStepName, "mcp_discover" | "mcp_skills">; outcome: StepOutcome<unknown>; ms: number }[];
  /** The versions `server/discover` offers; empty when it offered none. */
  versions: string[];
  discover?: DiscoverResult;
  skills?: SkillCatalogue;
  /** `server/discover` was answered -32601: the driver has no modern era. */
  noModernEra?: true;
}

/** Asks for the modern era and, when the driver has it, its skills and resources. */
export async function probeModernEra(ask: AskMcp): Promise<ModernEraFindings> {
  const findings: ModernEraFindings = { steps: [], versions: [] };
  let started = performance.now();
  const discover = await ask("server/discover", { _meta: { ...MODERN_REQUEST_META } });
  const discoverMs = Math.round(performance.now() - started);
  if ("error" in discover && discover.error.code === -32601) return { ...findings, noModernEra: true };
  const parsed = readResult("server/discover", discover, (r) => DiscoverResultSchema.parse(r));
  findings.steps.push({ step: "mcp_discover", outcome: parsed, ms: discoverMs });
  if (parsed.status !== "succeeded") return findings;
  findings.discover = parsed.value;
  findings.versions = parsed.value.supportedVersions;
  if (!findings.versions.includes(MODERN_MCP_ERA)) return findings;
  started = performance.now();
  const skills = await ask("skills/list", { _meta: { ...MODERN_REQUEST_META } });
  const resources = await ask("resources/list", { _meta: { ...MODERN_REQUEST_META } });
  const catalogue = readCatalogue(skills, resources);
  findings.steps.push({ step: "mcp_skills", outcome: catalogue, ms: Math.round(performance.now() - started) });
  if (catalogue.status === "succeeded") findings.skills = catalogue.value;
  return findings;
}

/** `mcp_eras` of a snapshot: `legacy` when the `initialize` handshake answered, then every discovered version. */
export function erasSpoken(legacy: boolean, versions: readonly string[]): string[] {
  return [...(legacy ? ["legacy"] : []), ...versions.filter((v) => v !== "legacy")];
}

/** A step's outcome from one request's answer: the parsed result, or why there is none. */
export function readResult<T>(method: string, answer: RawAnswer, parse: (r: unknown) => T): StepOutcome<T> {
  if ("failed" in answer) return { status: "failed", message: answer.failed, ...(answer.timedOut ? { timedOut: true } : {}) };
  if ("error" in answer) return { status: "failed", message: `${method} answered with error ${JSON.stringify(answer.error)}` };
  try {
    return { status: "succeeded", value: parse(answer.result) };
  } catch (error) {
    return { status: "failed", message: `${method} result is not valid: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
}

interface ListedSkill {
  uri?: unknown;
  frontmatter?: { name?: unknown; version?: unknown };
  resources?: { uri?: unknown; size?: unknown; digest?: unknown }[];
}

// skills/list names each skill and its files with size and digest; resources/list every resource served
function readCatalogue(skills: RawAnswer, resources: RawAnswer): StepOutcome<SkillCatalogue> {
  const listed = readResult("skills/list", skills, (r) => arrayOf(r, "skills") as ListedSkill[]);
  if (listed.status !== "succeeded") return listed;
  const served = readResult("resources/list", resources, (r) => arrayOf(r, "resources") as { uri?: unknown; size?: unknown }[]);
  if (served.status !== "succeeded") return served;
  const catalogue: SkillCatalogue = { skills: [], resources: [] };
  const byUri = new Map<string, SkillCatalogue["resources"][number]>();
  const add = (uri: unknown, size: unknown, digest: unknown) => {
    if (typeof uri !== "string") return;
    let entry = byUri.get(uri);
    if (!entry) {
      entry = { uri };
      byUri.set(uri, entry);
      catalogue.resources.push(entry);
    }
    if (entry.size === undefined && Number.isInteger(size) && (size as number) >= 0) entry.size = size as number;
    if (entry.digest === undefined && typeof digest === "string") entry.digest = digest;
  };
  for (const r of served.value) add(r.uri, r.size, undefined);
  for (const skill of listed.value) {
    if (typeof skill.uri !== "string") continue;
    const entry: SkillCatalogue["skills"][number] = { uri: skill.uri };
    if (typeof skill.frontmatter?.name === "string") entry.name = skill.frontmatter.name;
    if (typeof skill.frontmatter?.version === "string") entry.version = skill.frontmatter.version;
    catalogue.skills.push(entry);
    for (const r of skill.resources ?? []) add(r.uri, r.size, r.digest);
  }
  return { status: "succeeded", value: catalogue };
}

function arrayOf(result: unknown, key: string): unknown[] {
  const value = result && typeof result === "object" ? (result as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(value)) throw new Error(`${key}: expected an array`);
  return value;
}

/** Puts what the modern probe found on a snapshot: nothing when the driver has no modern era. */
export function addModernEra(snapshot: ProbeSnapshot, findings: ModernEraFindings, legacy: boolean): void {
  // a release that should speak the modern era and does not is a finding (diff: the era went away);
  // before 0.28 the -32601 is recorded as nothing, so those snapshots stay what they were
  const version = snapshot.driver.version;
  if (findings.noModernEra && legacy && version && satisfies(version, `>=${FIRST_MODERN_RELEASE}`)) {
    snapshot.mcp_eras = erasSpoken(legacy, []);
    return;
  }
  if (!findings.discover) return;
  snapshot.mcp_eras = erasSpoken(legacy, findings.versions);
  snapshot.discover = findings.discover;
  if (findings.skills) snapshot.skills = findings.skills;
}
