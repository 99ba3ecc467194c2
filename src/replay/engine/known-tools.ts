import { KNOWN_TOOLS_0_21, listedToolsFor } from "#src/driver/catalogue.js";
import { messageOfBody } from "#src/transports/http/wire/event-stream.js";
import { REFERENCE_DRIVER_VERSION } from "#src/driver/reference-version.js";
import { parseListTools } from "#src/transports/cli/wire/stdout.js";
import { rawMember } from "#src/wire/json/spans.js";
import type { InvariantOptions } from "#src/invariants/types.js";
import type { RecordedExchange } from "./exchanges.js";

/** The tools the recorded driver offers, and where that list comes from (a violation names it). */
export interface KnownTools {
  names: readonly string[];
  /** What the list is, as a sentence's object: `the cassette's probe`, `the cua-driver 0.28.2 tool list (…)`. */
  source: string;
  /** Which evidence gave it, best first (docs/decisions/0280). */
  basis: "probe" | "recorded" | "catalogue" | "reference";
}

/**
 * The tools a recording's driver offers, from the best evidence the cassette holds
 * (docs/decisions/0280): its probe; else every `tools/list` answer (MCP, HTTP) and `list-tools`
 * output (CLI) it recorded, together; else the catalogue's list for the header's driver version;
 * only then the reference version's list.
 */
export function knownToolsOf(options: {
  /** The probe's tool names (its tools/list, with the binary's own tools; or its `list-tools` names). */
  probeTools?: readonly string[] | undefined;
  exchanges: readonly RecordedExchange[];
  driver?: { version: string | null; platform?: string } | undefined;
}): KnownTools {
  if (options.probeTools) return { names: options.probeTools, source: "the cassette's probe", basis: "probe" };
  const recorded = recordedToolNames(options.exchanges);
  if (recorded) return { names: recorded.names, source: `the cassette's recorded ${recorded.what}`, basis: "recorded" };
  const version = options.driver?.version;
  const listed = listedToolsFor({ version, ...(options.driver?.platform !== undefined ? { platform: options.driver.platform } : {}) });
  if (listed) return { names: listed.names, source: `the cua-driver ${version} tool list (the catalogue's: ${listed.note})`, basis: "catalogue" };
  const why = version
    ? `the catalogue has no list for the cassette's cua-driver ${version}${platformNote(options.driver?.platform)}`
    : "the cassette names no driver version";
  return { names: KNOWN_TOOLS_0_21, source: `the cua-driver ${REFERENCE_DRIVER_VERSION} tool list (the reference version: ${why})`, basis: "reference" };
}

function platformNote(platform: string | undefined): string {
  return platform !== undefined && !platform.startsWith("linux") ? ` on ${platform}` : "";
}

/**
 * Every tool name the recorded driver listed, over all its recorded `tools/list` answers and
 * `list-tools` outputs (not an answer a fault injected while recording took the place of); undefined
 * when it recorded none it could read.
 */
function recordedToolNames(exchanges: readonly RecordedExchange[]): { names: string[]; what: string } | undefined {
  const names = new Set<string>();
  // the request's event of each list used (a CLI event is its own answer)
  const used = { "tools/list": [] as number[], "list-tools": [] as number[] };
  for (const x of exchanges) {
    // a fault the driver never saw took the place of its answer
    if ((x.fault && !x.fault.forwarded) || x.virtual) continue;
    const method = x.request.method;
    const listed = method === "tools/list" ? toolsListNames(x) : method === "list-tools" ? listToolsNames(x) : undefined;
    if (!listed) continue;
    for (const n of listed) names.add(n);
    used[method as keyof typeof used].push(x.seq);
  }
  const plural = (seqs: number[]) => (seqs.length > 1 ? "s" : "");
  const what = [
    ...(used["tools/list"].length > 0
      ? [`tools/list answer${plural(used["tools/list"])} (to event${plural(used["tools/list"])} ${used["tools/list"].join(", ")})`]
      : []),
    ...(used["list-tools"].length > 0
      ? [`list-tools output${plural(used["list-tools"])} (event${plural(used["list-tools"])} ${used["list-tools"].join(", ")})`]
      : []),
  ];
  return what.length > 0 ? { names: [...names].sort(), what: what.join(" and ") } : undefined;
}

function toolsListNames(x: RecordedExchange): string[] | undefined {
  const recorded = x.rpc?.response;
  if (!recorded) return undefined;
  const response = messageOfBody(recorded); // an HTTP answer may be an event stream; an MCP line is the message
  try {
    const result = rawMember(response, "result");
    const tools = result ? (JSON.parse(result) as { tools?: unknown }).tools : undefined;
    if (!Array.isArray(tools)) return undefined;
    return tools.flatMap((t) => (typeof (t as { name?: unknown })?.name === "string" ? [(t as { name: string }).name] : []));
  } catch {
    // a broken answer is no evidence
    return undefined;
  }
}

function listToolsNames(x: RecordedExchange): string[] | undefined {
  if (x.transport !== "cli" || !x.cli || x.cli.exitCode !== 0 || typeof x.cli.stdout !== "string") return undefined;
  const names = parseListTools(x.cli.stdout).map((t) => t.name);
  return names.length > 0 ? names : undefined;
}

/** The invariants' options that carry the known tools (`no-unknown-tools` names the source in its message). */
export function knownToolsOptions(known: KnownTools): Pick<InvariantOptions, "knownTools" | "knownToolsSource"> {
  return { knownTools: known.names, knownToolsSource: known.source };
}
