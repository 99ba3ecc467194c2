import type { ToolEntry } from "#src/schema/probe-snapshot.js";
import type { Change, Severity } from "./change.js";
import { deepEqual, pointer } from "./json.js";
import { diffSchemas } from "./schema-diff.js";

type Hint = "readOnlyHint" | "idempotentHint" | "destructiveHint" | "openWorldHint";

/** The value of each hint that a harness may lean on; losing it is a behavioural change. */
export const SAFE_HINT_VALUE: Record<Hint, boolean> = {
  readOnlyHint: true,
  idempotentHint: true,
  destructiveHint: false,
  openWorldHint: false,
};

const RISK_ORDER = ["r0", "r1", "r2", "r3"];
const KNOWN_FIELDS: ReadonlySet<string> = new Set(["name", "description", "inputSchema", "outputSchema", "annotations", "capabilities", "risk"]);

/** Classified differences between two versions of one tool entry. */
export function diffTool(a: ToolEntry, b: ToolEntry): Change[] {
  const tool = a.name;
  const out: Change[] = [];
  const add = (severity: Severity, kind: Change["kind"], path: string, message: string, from?: unknown, to?: unknown) =>
    out.push({ severity, kind, tool, path, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}), message: `${tool}: ${message}` });

  if (a.description !== b.description) add("cosmetic", "description_changed", "/description", "description changed");
  for (const hint of Object.keys(SAFE_HINT_VALUE) as Hint[]) {
    const from = a.annotations?.[hint];
    const to = b.annotations?.[hint];
    if (from === to) continue;
    const safe = SAFE_HINT_VALUE[hint];
    const lost = from === safe && to !== safe;
    const severity: Severity = lost ? "behavioural" : to === safe ? "additive" : "cosmetic";
    add(severity, "annotation_changed", `/annotations/${hint}`, `${hint} changed ${String(from ?? "unset")} → ${String(to ?? "unset")}`, from, to);
  }
  diffRisk(a, b, add);
  const capsA = new Set(a.capabilities ?? []);
  const capsB = new Set(b.capabilities ?? []);
  for (const cap of capsA) if (!capsB.has(cap)) add("breaking", "capability_removed", "/capabilities", `capability "${cap}" is gone`, cap);
  for (const cap of capsB) if (!capsA.has(cap)) add("additive", "capability_added", "/capabilities", `capability "${cap}" is new`, undefined, cap);
  out.push(...diffSchemas({ tool, direction: "input", from: a.inputSchema ?? {}, to: b.inputSchema ?? {}, at: "/inputSchema" }));
  if (a.outputSchema && !b.outputSchema) add("breaking", "output_schema_removed", "/outputSchema", "outputSchema is gone");
  else if (!a.outputSchema && b.outputSchema) add("additive", "output_schema_added", "/outputSchema", "outputSchema is new");
  else if (a.outputSchema && b.outputSchema) {
    out.push(...diffSchemas({ tool, direction: "output", from: a.outputSchema, to: b.outputSchema, at: "/outputSchema" }));
  }
  const extra = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !KNOWN_FIELDS.has(k)));
  for (const key of extra) {
    const ra = (a as Record<string, unknown>)[key];
    const rb = (b as Record<string, unknown>)[key];
    if (!deepEqual(ra, rb)) add("cosmetic", "field_changed", pointer(key), `field "${key}" changed`, ra, rb);
  }
  return out;
}

function diffRisk(
  a: ToolEntry,
  b: ToolEntry,
  add: (severity: Severity, kind: Change["kind"], path: string, message: string, from?: unknown, to?: unknown) => void,
): void {
  const ra = a.risk;
  const rb = b.risk;
  if (deepEqual(ra, rb)) return;
  if (ra?.class !== rb?.class) {
    const up = RISK_ORDER.indexOf(rb?.class ?? "") > RISK_ORDER.indexOf(ra?.class ?? "");
    add(
      up ? "behavioural" : "additive",
      "risk_changed",
      "/risk/class",
      `risk class changed ${ra?.class ?? "unset"} → ${rb?.class ?? "unset"}`,
      ra?.class,
      rb?.class,
    );
  }
  if (ra?.enforcement !== rb?.enforcement) {
    add(
      "behavioural",
      "risk_changed",
      "/risk/enforcement",
      `risk enforcement changed ${ra?.enforcement ?? "unset"} → ${rb?.enforcement ?? "unset"}`,
      ra?.enforcement,
      rb?.enforcement,
    );
  }
  if (ra?.operation_sensitive !== rb?.operation_sensitive) {
    add(
      rb?.operation_sensitive ? "behavioural" : "additive",
      "risk_changed",
      "/risk/operation_sensitive",
      `risk operation_sensitive changed ${String(ra?.operation_sensitive ?? "unset")} → ${String(rb?.operation_sensitive ?? "unset")}`,
      ra?.operation_sensitive,
      rb?.operation_sensitive,
    );
  }
  if (ra?.version !== rb?.version)
    add("cosmetic", "risk_changed", "/risk/version", `risk version changed ${ra?.version ?? "unset"} → ${rb?.version ?? "unset"}`, ra?.version, rb?.version);
}
