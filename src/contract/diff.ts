import { MODERN_MCP_ERA, type ToolEntry } from "#src/schema/probe-snapshot.js";
import { type Change, SEVERITIES, type Severity, isFailing } from "./change.js";
import { deepEqual, stripAnnotations } from "./json.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import { toolsWith } from "#src/driver/catalogue.js";
import { diffEras, diffSkills } from "./era-diff.js";
import { diffManifests } from "./manifest-diff.js";
import type { DriverSurface } from "./surface.js";
import { diffTool } from "./tool-diff.js";

/**
 * What changed between two driver surfaces (tools, schemas, annotations), each change classed by
 * what it does to a harness.
 */
export interface DriverDiff {
  /** `read_from_source`: the side is a snapshot read from the driver's source, never run (where, in words). */
  from: { version: string | null; source: string; read_from_source?: string };
  to: { version: string | null; source: string; read_from_source?: string };
  /** Breaking and behavioural changes make this false. */
  ok: boolean;
  counts: Record<Severity, number>;
  changes: Change[];
  /** What could not be compared (a side lacks the step), in words. */
  notes: string[];
}

/** Every classified difference between two driver surfaces, most severe first. */
export function diffSurfaces(a: DriverSurface, b: DriverSurface): DriverDiff {
  const changes: Change[] = [];
  const notes: string[] = [];
  const namesA = rosterNames(a, b);
  const namesB = rosterNames(b, a);
  if (a.tools && b.tools) changes.push(...diffToolLists(a.tools.tools, b.tools.tools), ...diffListHeaders(a, b));
  else if (namesA && namesB) {
    // names only on a side: a tool there has schemas nobody saw, so nothing of them came or went
    changes.push(...diffNames(namesA, namesB));
    const fromSource = [a, b].flatMap((s, i) => (s.readFromSource && !s.tools ? [`the ${i === 0 ? "first" : "second"} side`] : []));
    notes.push(
      fromSource.length
        ? `tool schemas not compared: ${fromSource.join(" and ")} was read from source, which names the tools only (their schemas are unknown, not absent)`
        : "tool schemas not compared: only list-tools names on one side",
    );
  } else notes.push("tools not compared: one side has no tools/list");
  if (a.manifest && b.manifest) changes.push(...diffManifests(a.manifest, b.manifest));
  else if (a.manifest || b.manifest) notes.push(`CLI argv not compared: ${a.manifest ? "the second" : "the first"} side has no manifest`);
  if (a.protocolVersion && b.protocolVersion && a.protocolVersion !== b.protocolVersion) {
    changes.push({
      severity: "behavioural",
      kind: "protocol_version_changed",
      from: a.protocolVersion,
      to: b.protocolVersion,
      message: `MCP protocolVersion changed ${a.protocolVersion} → ${b.protocolVersion}`,
    });
  }
  if (a.contractVersion && b.contractVersion && a.contractVersion !== b.contractVersion) {
    changes.push({
      severity: "behavioural",
      kind: "contract_version_changed",
      from: a.contractVersion,
      to: b.contractVersion,
      message: `driver contract version changed ${a.contractVersion} → ${b.contractVersion}`,
    });
  }
  if (a.eras && b.eras) changes.push(...diffEras(a.eras.eras, b.eras.eras));
  else if ((a.eras && !a.eras.inferred) || (b.eras && !b.eras.inferred))
    notes.push(`MCP eras not compared: ${a.eras ? "the second" : "the first"} side did not record them`);
  // a side known to lack the modern era serves no skills: everything of the other side's catalogue came or went
  const skillsA = a.skills ?? (lacksModernEra(a) ? NO_SKILLS : undefined);
  const skillsB = b.skills ?? (lacksModernEra(b) ? NO_SKILLS : undefined);
  if (skillsA && skillsB) changes.push(...diffSkills(skillsA, skillsB));
  else if (a.skills || b.skills) notes.push(`skills not compared: ${a.skills ? "the second" : "the first"} side has no skill catalogue`);
  const rank = (c: Change) => SEVERITIES.indexOf(c.severity);
  changes.sort((x, y) => rank(x) - rank(y));
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, changes.filter((c) => c.severity === s).length])) as Record<Severity, number>;
  const side = (s: DriverSurface) => ({ version: s.version, source: s.source, ...(s.readFromSource ? { read_from_source: s.readFromSource } : {}) });
  return {
    from: side(a),
    to: side(b),
    ok: !changes.some(isFailing),
    counts,
    changes,
    notes,
  };
}

const NO_SKILLS = { skills: [], resources: [] };

/**
 * A side's tool names. A roster read from source is what the binary lists, so against it the
 * published runtime's inventory counts the tools the binary registers on top of it (check_for_update).
 */
function rosterNames(side: DriverSurface, other: DriverSurface): string[] | undefined {
  const names = side.toolNames ?? side.tools?.tools.map((t) => t.name);
  if (!names || side.source !== "sdk" || !other.readFromSource) return names;
  return [...new Set([...names, ...toolsWith("cli-host")])];
}

function lacksModernEra(surface: DriverSurface): boolean {
  return surface.eras !== undefined && !surface.eras.eras.includes(MODERN_MCP_ERA);
}

function diffToolLists(a: ToolEntry[], b: ToolEntry[]): Change[] {
  const out: Change[] = [];
  const byName = new Map(b.map((t) => [t.name, t]));
  const names = new Set(a.map((t) => t.name));
  const removed = a.filter((t) => !byName.has(t.name));
  const added = b.filter((t) => !names.has(t.name));
  for (const tool of a) {
    const other = byName.get(tool.name);
    // Most tools are the same from one version to the next: the same text has no difference to classify.
    if (other && JSON.stringify(tool) !== JSON.stringify(other)) out.push(...diffTool(tool, other));
  }
  for (const tool of removed) {
    // A tool that vanished while one with the same input schema appeared was renamed.
    const twin = added.find(
      (t) => t.inputSchema && deepEqual(stripAnnotations(t.inputSchema), stripAnnotations(tool.inputSchema)) && canonicalJson(t.inputSchema) !== "{}",
    );
    if (twin) {
      added.splice(added.indexOf(twin), 1);
      out.push({
        severity: "breaking",
        kind: "tool_renamed",
        tool: tool.name,
        from: tool.name,
        to: twin.name,
        message: `${tool.name}: tool was renamed to ${twin.name}`,
      });
    } else out.push({ severity: "breaking", kind: "tool_removed", tool: tool.name, from: tool.name, message: `${tool.name}: tool is gone` });
  }
  for (const tool of added) out.push({ severity: "additive", kind: "tool_added", tool: tool.name, to: tool.name, message: `${tool.name}: tool is new` });
  return out;
}

function diffNames(a: string[], b: string[]): Change[] {
  const sb = new Set(b);
  const sa = new Set(a);
  return [
    ...a.filter((n) => !sb.has(n)).map((n): Change => ({ severity: "breaking", kind: "tool_removed", tool: n, from: n, message: `${n}: tool is gone` })),
    ...b.filter((n) => !sa.has(n)).map((n): Change => ({ severity: "additive", kind: "tool_added", tool: n, to: n, message: `${n}: tool is new` })),
  ];
}

function diffListHeaders(a: DriverSurface, b: DriverSurface): Change[] {
  const out: Change[] = [];
  for (const key of ["capability_version", "schema_version"] as const) {
    const from = a.tools?.[key];
    const to = b.tools?.[key];
    if (from === to) continue;
    out.push({
      severity: "behavioural",
      kind: "tools_list_version_changed",
      path: `/${key}`,
      from,
      to,
      message: `tools/list ${key} changed ${from ?? "unset"} → ${to ?? "unset"}`,
    });
  }
  const adaptersA = new Map((a.tools?.enforcement_adapters ?? []).map((x) => [String(x.id), x]));
  const adaptersB = new Map((b.tools?.enforcement_adapters ?? []).map((x) => [String(x.id), x]));
  if (!a.tools?.enforcement_adapters || !b.tools?.enforcement_adapters) return out;
  for (const [id, adapter] of adaptersA) {
    const other = adaptersB.get(id);
    const covers = coveredTools(adapter, other);
    if (!other)
      out.push({
        severity: "behavioural",
        kind: "adapter_removed",
        path: `/enforcement_adapters/${id}`,
        from: id,
        covers,
        message: `enforcement adapter ${id} is gone`,
      });
    else if (!deepEqual(adapter, other))
      out.push({ severity: "behavioural", kind: "adapter_changed", path: `/enforcement_adapters/${id}`, covers, message: `enforcement adapter ${id} changed` });
  }
  for (const [id, adapter] of adaptersB) {
    if (!adaptersA.has(id))
      out.push({
        severity: "additive",
        kind: "adapter_added",
        path: `/enforcement_adapters/${id}`,
        to: id,
        covers: coveredTools(adapter),
        message: `enforcement adapter ${id} is new`,
      });
  }
  return out;
}

/** Tool names an adapter's `operations` name (`browser_prepare[profile.mode=isolated]` → browser_prepare), on either side. */
function coveredTools(...adapters: Array<Record<string, unknown> | undefined>): string[] {
  const names = new Set<string>();
  for (const adapter of adapters) {
    const ops = adapter?.operations;
    if (!Array.isArray(ops)) continue;
    for (const op of ops) if (typeof op === "string") names.add(op.replace(/\[.*$/, "").trim());
  }
  return [...names].sort();
}
