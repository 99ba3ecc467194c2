import type { DriverContract } from "#src/schema/driver-contract.js";
import type { ProbeSnapshot, ProbeStepName, ToolEntry } from "#src/schema/probe-snapshot.js";
import { satisfies } from "#src/util/versions.js";
import { checkErasAndSkills, namesErasOrSkills } from "./check-eras.js";

export type CheckItemKind =
  | "version"
  | "argv"
  | "tool"
  | "capability"
  | "input"
  | "annotation"
  | "output_schema"
  | "protocol_version"
  | "contract_version"
  | "mcp_era"
  | "skill"
  | "skill_digest";

/** `unverified`: the probe could not see this (e.g. an sdk probe has no CLI); reported, not failed. */
export type CheckItemStatus = "passed" | "failed" | "unverified";

/** One requirement of the contract, checked. `id` is stable across runs (baselines use it). */
export interface CheckItem {
  id: string;
  kind: CheckItemKind;
  name: string;
  status: CheckItemStatus;
  message: string;
}

export interface Gap {
  kind: CheckItemKind;
  name: string;
  message: string;
  /** false for notices that do not fail the check (version series, unverifiable items). */
  blocking: boolean;
}

/** A probe checked against a driver contract: each item's outcome, and `ok` when none fails. */
export interface CheckReport {
  ok: boolean;
  version: string | null;
  items: CheckItem[];
  gaps: Gap[];
}

const RELIED_ON: Record<string, [string, string]> = {
  readOnlyHint: ["read-only", "mutating"],
  idempotentHint: ["repeatable", "not repeatable"],
  destructiveHint: ["destructive", "non-destructive"],
  openWorldHint: ["open-world", "closed-world"],
};

/** Checks a probe snapshot against a driver contract and names every gap. */
export function checkContract(options: { snapshot: ProbeSnapshot; contract: DriverContract }): CheckReport {
  const { snapshot, contract } = options;
  const items: CheckItem[] = [];
  const push = (kind: CheckItemKind, name: string, status: CheckItemStatus, message: string) =>
    items.push({ id: `contract:${kind}:${name}`, kind, name, status, message });
  const unseen = (step: ProbeStepName) => whyUnseen(snapshot, step);

  checkArgv({ contract, snapshot, push, unseen });
  checkTools({ contract, snapshot, push, unseen });
  const protocol = snapshot.initialize?.protocolVersion ?? snapshot.metadata?.mcpProtocolVersion;
  const wantProtocol = contract.driver.protocol_version;
  if (wantProtocol) {
    if (!protocol) push("protocol_version", "protocolVersion", "unverified", `MCP protocolVersion not checked: ${unseen("mcp_initialize")}`);
    else if (protocol !== wantProtocol)
      push("protocol_version", "protocolVersion", "failed", `MCP protocolVersion is ${protocol}, the contract expects ${wantProtocol}`);
    else push("protocol_version", "protocolVersion", "passed", `MCP protocolVersion is ${protocol}`);
  }
  if (namesErasOrSkills(contract)) checkErasAndSkills({ contract, snapshot, push, unseen: unseen("mcp_discover") });
  const wantContract = contract.driver.contract_version;
  const contractVersion = snapshot.metadata?.contractVersion;
  if (wantContract) {
    if (!contractVersion) push("contract_version", "contract_version", "unverified", `driver contract version not checked: ${unseen("metadata")}`);
    else if (contractVersion !== wantContract)
      push("contract_version", "contract_version", "failed", `driver contract version is ${contractVersion}, the contract expects ${wantContract}`);
    else push("contract_version", "contract_version", "passed", `driver contract version is ${contractVersion}`);
  }

  const version = snapshot.driver.version;
  const blocking = items.some((i) => i.status === "failed");
  const range = contract.driver.versions;
  if (!version) push("version", "version", "unverified", `driver version is unknown, the contract covers ${range}`);
  else if (satisfies(version, range)) push("version", "version", "passed", `version ${version} is within ${range}`);
  else {
    const tail = blocking ? "" : "; everything this contract needs is present";
    push("version", "version", "unverified", `version ${version} is outside ${range}${tail}`);
  }
  const gaps = items
    .filter((i) => i.status !== "passed")
    .map((i): Gap => ({ kind: i.kind, name: i.name, message: i.message, blocking: i.status === "failed" }));
  return { ok: !blocking, version, items, gaps };
}

type Push = (kind: CheckItemKind, name: string, status: CheckItemStatus, message: string) => void;
interface Part {
  contract: DriverContract;
  snapshot: ProbeSnapshot;
  push: Push;
  unseen: (step: ProbeStepName) => string;
}

function checkArgv({ contract, snapshot, push, unseen }: Part): void {
  const manifest = snapshot.manifest;
  // the published runtime has no CLI, and a roster read from source names none
  const noCli = snapshot.driver.source === "sdk" || snapshot.driver.source === "source";
  const why = snapshot.driver.source === "sdk" ? "an sdk probe has no CLI" : "read from source, whose roster names no CLI";
  for (const [sub, args] of Object.entries(contract.argv ?? {})) {
    const names = args.length > 0 ? args.map((a) => `${sub} ${a}`) : [sub];
    const found = manifest?.subcommands.find((s) => s.name === sub);
    names.forEach((name, i) => {
      if (!manifest) {
        push(
          "argv",
          name,
          noCli ? "unverified" : "failed",
          noCli ? `driver CLI not checked: ${name} (${why})` : `driver CLI could not be checked for ${name}: ${unseen("manifest")}`,
        );
        return;
      }
      const arg = args[i];
      const present = found && (arg === undefined || found.args.some((a) => a.name === arg));
      push("argv", name, present ? "passed" : "failed", present ? `driver CLI has ${name}` : `driver CLI is missing: ${name}`);
    });
  }
}

function checkTools({ contract, snapshot, push, unseen }: Part): void {
  const tools = snapshot.tools_list ? new Map(snapshot.tools_list.tools.map((t) => [t.name, t])) : undefined;
  const names = tools ? new Set(tools.keys()) : snapshot.list_tools ? new Set(snapshot.list_tools) : undefined;
  for (const [name, need] of Object.entries(contract.tools)) {
    if (!names) {
      push("tool", name, "failed", `driver tools could not be checked for ${name}: ${unseen("mcp_tools_list")}`);
      continue;
    }
    if (!names.has(name)) {
      push("tool", name, "failed", `driver tools are missing: ${name}`);
      continue;
    }
    push("tool", name, "passed", `driver has tool ${name}`);
    const tool = tools?.get(name);
    const detail = (kind: CheckItemKind, item: string, check: (t: ToolEntry) => [boolean, string]) => {
      if (!tool) return push(kind, item, "unverified", `${item} not checked: ${unseen("mcp_tools_list")}`);
      const [ok, message] = check(tool);
      push(kind, item, ok ? "passed" : "failed", message);
    };
    for (const cap of need.capabilities ?? []) {
      detail("capability", `${name}:${cap}`, (t) =>
        (t.capabilities ?? []).includes(cap) ? [true, `${name}: capability "${cap}" is present`] : [false, `${name}: capability "${cap}" is missing`],
      );
    }
    for (const prop of need.input ?? []) {
      detail("input", `${name}:${prop}`, (t) =>
        hasProperty(t.inputSchema, prop) ? [true, `${name}: input property "${prop}" is present`] : [false, `${name}: input property "${prop}" is gone`],
      );
    }
    for (const [hint, want] of Object.entries(need.annotations ?? {})) {
      if (want === undefined) continue;
      detail("annotation", `${name}:${hint}`, (t) => {
        const got = (t.annotations as Record<string, unknown> | undefined)?.[hint];
        const relied = RELIED_ON[hint]?.[want ? 0 : 1] ?? String(want);
        if (got === want) return [true, `${name}: ${hint} is ${String(want)}`];
        if (got === undefined) return [false, `${name}: ${hint} is unset, expected ${String(want)} (was relied on as ${relied})`];
        return [false, `${name}: ${hint} changed ${String(want)} → ${String(got)} (was relied on as ${relied})`];
      });
    }
    if (need.output_schema) {
      detail("output_schema", `${name}:outputSchema`, (t) =>
        t.outputSchema ? [true, `${name}: outputSchema is present`] : [false, `${name}: outputSchema is missing (the contract requires one)`],
      );
    }
  }
}

function hasProperty(schema: Record<string, unknown> | undefined, prop: string): boolean {
  const props = schema?.properties;
  return typeof props === "object" && props !== null && prop in props;
}

/** Why the probe has no data from a step, in words. */
export function whyUnseen(snapshot: ProbeSnapshot, step: ProbeStepName): string {
  const s = snapshot.steps.find((x) => x.step === step);
  if (!s) return `the probe did not run the ${step} step`;
  if (s.status === "succeeded") return `the ${step} step returned nothing usable`;
  return `the ${step} step ${s.status === "failed" ? "failed" : "is unsupported"}${s.message ? ` (${s.message})` : ""}`;
}

/** True when no probe step succeeded: the driver could not be probed at all. */
export function probeFailed(snapshot: ProbeSnapshot): boolean {
  return !snapshot.steps.some((s) => s.status === "succeeded");
}
