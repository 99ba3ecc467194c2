import { erasOfSnapshot, type SurfaceEras } from "./era-diff.js";
import {
  PROBE_FORMAT,
  ProbeSnapshotSchema,
  ToolsListResultSchema,
  type DriverManifest,
  type ProbeSnapshot,
  type SkillCatalogue,
  type ToolsListResult,
  describeDriver,
  isSourceSnapshot,
  sourceLabel,
} from "#src/schema/probe-snapshot.js";

/** What can be compared of one driver, whatever document it came from. */
export interface DriverSurface {
  version: string | null;
  source: string;
  /**
   * For a snapshot read from the driver's source (never run): where it was read, in words. Its
   * tools are names only; their schemas are unknown, not absent.
   */
  readFromSource?: string;
  manifest?: DriverManifest;
  tools?: ToolsListResult;
  /** `list-tools` names, used when there is no full tools/list. */
  toolNames?: string[];
  protocolVersion?: string;
  contractVersion?: string;
  /** The MCP eras spoken on stdio, recorded or read off a version before 0.28. */
  eras?: SurfaceEras;
  /** The skills and resources of the modern era, with digests. */
  skills?: SkillCatalogue;
}

export function surfaceOfSnapshot(snapshot: ProbeSnapshot): DriverSurface {
  const fromSource = isSourceSnapshot(snapshot);
  const surface: DriverSurface = { version: snapshot.driver.version, source: fromSource ? sourceLabel(snapshot.driver) : snapshot.driver.source };
  if (fromSource) surface.readFromSource = describeDriver(snapshot.driver);
  if (snapshot.manifest) surface.manifest = snapshot.manifest;
  if (snapshot.tools_list) surface.tools = snapshot.tools_list;
  if (snapshot.list_tools) surface.toolNames = snapshot.list_tools;
  const protocol = snapshot.initialize?.protocolVersion ?? snapshot.metadata?.mcpProtocolVersion;
  if (protocol) surface.protocolVersion = protocol;
  if (snapshot.metadata?.contractVersion) surface.contractVersion = snapshot.metadata.contractVersion;
  const eras = erasOfSnapshot(snapshot);
  if (eras) surface.eras = eras;
  if (snapshot.skills) surface.skills = snapshot.skills;
  return surface;
}

export function surfaceOfToolsList(tools: ToolsListResult): DriverSurface {
  return { version: null, source: "tools/list", tools };
}

/**
 * The surface of a parsed document: a probe snapshot, a `tools/list` result, or a JSON-RPC
 * response carrying one. Returns why not, in words, when it is none of them.
 */
export function surfaceOfDocument(value: unknown): { surface: DriverSurface } | { problem: string; field?: string } {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { problem: "expected a JSON object" };
  const doc = value as Record<string, unknown>;
  if (doc.format === PROBE_FORMAT) {
    const parsed = ProbeSnapshotSchema.safeParse(doc);
    if (!parsed.success) return issueProblem("probe snapshot", parsed.error.issues[0]);
    return { surface: surfaceOfSnapshot(parsed.data) };
  }
  const result = doc.jsonrpc && doc.result && typeof doc.result === "object" ? doc.result : doc;
  if (Array.isArray((result as Record<string, unknown>).tools)) {
    const parsed = ToolsListResultSchema.safeParse(result);
    if (!parsed.success) return issueProblem("tools/list result", parsed.error.issues[0], result === doc ? "" : "result.");
    return { surface: surfaceOfToolsList(parsed.data) };
  }
  return { problem: `neither a probe snapshot (format "${PROBE_FORMAT}") nor a tools/list result (a "tools" array)` };
}

function issueProblem(what: string, issue: { path: PropertyKey[]; message: string } | undefined, prefix = ""): { problem: string; field: string } {
  return { problem: `not a valid ${what}: ${issue?.message ?? "unknown problem"}`, field: `${prefix}${issue?.path.map(String).join(".") ?? ""}` || "(root)" };
}
