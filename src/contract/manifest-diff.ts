import type { DriverManifest } from "#src/schema/probe-snapshot.js";
import type { Change } from "./change.js";
import { deepEqual, pointer } from "./json.js";

/** Classified differences in the CLI surface a manifest describes (subcommands and their argv). */
export function diffManifests(a: DriverManifest, b: DriverManifest): Change[] {
  const out: Change[] = [];
  const subsB = new Map(b.subcommands.map((s) => [s.name, s]));
  const subsA = new Map(a.subcommands.map((s) => [s.name, s]));
  for (const [name, sub] of subsA) {
    const other = subsB.get(name);
    const at = `/subcommands${pointer(name)}`;
    if (!other) {
      out.push({ severity: "breaking", kind: "subcommand_removed", path: at, from: name, message: `driver CLI lost subcommand: ${name}` });
      continue;
    }
    const argsB = new Map(other.args.map((x) => [x.name, x]));
    const argsA = new Map(sub.args.map((x) => [x.name, x]));
    for (const [arg, spec] of argsA) {
      const next = argsB.get(arg);
      if (!next) {
        out.push({ severity: "breaking", kind: "argv_removed", path: `${at}/args${pointer(arg)}`, from: arg, message: `driver CLI lost: ${name} ${arg}` });
      } else if (spec.type !== next.type) {
        out.push({
          severity: "breaking",
          kind: "argv_type_changed",
          path: `${at}/args${pointer(arg)}/type`,
          from: spec.type,
          to: next.type,
          message: `driver CLI: ${name} ${arg} changed type ${spec.type ?? "unset"} → ${next.type ?? "unset"}`,
        });
      } else if (spec.description !== next.description) {
        out.push({
          severity: "cosmetic",
          kind: "description_changed",
          path: `${at}/args${pointer(arg)}/description`,
          message: `driver CLI: ${name} ${arg} description changed`,
        });
      }
    }
    for (const arg of argsB.keys()) {
      if (!argsA.has(arg))
        out.push({ severity: "additive", kind: "argv_added", path: `${at}/args${pointer(arg)}`, to: arg, message: `driver CLI gained: ${name} ${arg}` });
    }
    if (sub.description !== other.description) {
      out.push({ severity: "cosmetic", kind: "description_changed", path: `${at}/description`, message: `driver CLI: ${name} description changed` });
    }
  }
  for (const name of subsB.keys()) {
    if (!subsA.has(name))
      out.push({
        severity: "additive",
        kind: "subcommand_added",
        path: `/subcommands${pointer(name)}`,
        to: name,
        message: `driver CLI gained subcommand: ${name}`,
      });
  }
  const invA = a.mcp_invocation?.args;
  const invB = b.mcp_invocation?.args;
  if (!deepEqual(invA, invB)) {
    out.push({
      severity: "behavioural",
      kind: "mcp_invocation_changed",
      path: "/mcp_invocation/args",
      from: invA,
      to: invB,
      message: `driver manifest mcp_invocation.args changed ${JSON.stringify(invA ?? null)} → ${JSON.stringify(invB ?? null)}`,
    });
  }
  if (a.schema_version !== b.schema_version) {
    out.push({
      severity: "behavioural",
      kind: "manifest_schema_version_changed",
      path: "/schema_version",
      from: a.schema_version,
      to: b.schema_version,
      message: `driver manifest schema_version changed ${a.schema_version ?? "unset"} → ${b.schema_version ?? "unset"}`,
    });
  }
  return out;
}
