import path from "node:path";
import { cassetteOfScan } from "#src/cassette/scanned.js";
import { CASSETTE_FILE, readCassetteSync, scanCassette, schemaValidators, type Cassette } from "#src/cassette/index.js";
import { fileStamp, readScannedEvent, type FileStamp } from "#src/cassette/event-at.js";
import { createFrameCache } from "#src/cassette/frame-cache.js";
import type { ToolInfo } from "#src/driver/port.js";
import { createLru } from "#src/util/lru.js";
import { createExchangeBuilder, type AnswerSource } from "./engine/exchanges.js";
import { knownToolsOf, type KnownTools } from "./engine/known-tools.js";
import { withHostTools } from "#src/transports/mcp/wire/host-tools.js";
import { prepareCassette, preparedFrom } from "./engine/prepared.js";
import type { PreparedReplayCassette, ReplayCassette } from "./replayer.js";

/** Restored answers kept in memory (characters): what a replay serves again stays read, the rest is read again. */
export const ANSWER_CACHE_CHARS = 32 * 2 ** 20;

export interface LoadReplayOptions {
  /** The tool annotations to prepare with, from the cassette's probe.json (default: its `tools_list.tools`). */
  tools?: (probe: unknown) => readonly ToolInfo[] | undefined;
}

/**
 * A cassette directory read for replay in one pass, line by line: the header and probe checked,
 * every frame hash-checked, and the exchanges built holding only what matching needs. An answer
 * (and the frames spliced into it) is read from cassette.jsonl when it is served, so memory does
 * not grow with the cassette. `events` and `cassette.events` are read in full only when asked for.
 */
export function loadReplayCassette(dir: string, options: LoadReplayOptions = {}): PreparedReplayCassette & { cassette: Cassette; knownTools: KnownTools } {
  const file = path.join(dir, CASSETTE_FILE);
  let stamp: FileStamp | undefined;
  const answers: AnswerSource = {
    read: (seq, place) => readScannedEvent({ file, place, seq, stamp: (stamp ??= fileStamp(file)) }),
    frame: createFrameCache({ dir, where: file }).base64,
    cache: createLru({ maxWeight: ANSWER_CACHE_CHARS }),
  };
  const builder = createExchangeBuilder({ answers });
  const scan = scanCassette({ dir, validators: schemaValidators, frames: "verify", onEvent: (event, place) => builder.add(event, place) });
  stamp = fileStamp(file);
  const probe = scan.probe?.json;
  const tools = options.tools ? options.tools(probe) : probeTools(probe);
  const cassette = cassetteOfScan(scan, () => readCassetteSync(dir, { frames: "skip" }));
  const replay: ReplayCassette = {
    header: scan.header,
    get events() {
      return cassette.events;
    },
    frame: answers.frame,
    ...(tools ? { tools } : {}),
    ...probeToolsList(probe),
  };
  const knownTools = knownToolsOf({ probeTools: probeToolNames(probe), exchanges: builder.exchanges, driver: scan.header.driver });
  // the names the replay authorizes, when neither the probe nor the recording gives annotated tools
  const prepared = preparedFrom(builder.exchanges, tools, knownTools.names);
  return Object.assign(replay, { cassette, prepared, preparedTools: tools, knownTools });
}

/** The tools the driver of a cassette read whole offers (`knownToolsOf` over its probe, its recorded lists and its header). */
export function knownToolsOfCassette(cassette: Pick<Cassette, "events" | "header" | "probe">): KnownTools {
  // frames are left out (not read): they sit inside JSON strings, and no tool list holds one
  const { exchanges } = prepareCassette({ events: cassette.events, frame: () => "" });
  return knownToolsOf({ probeTools: probeToolNames(cassette.probe), exchanges, driver: cassette.header.driver });
}

/**
 * The tool entries of a probe's tools/list as the driver offers them: a probe of the published
 * runtime lacks the tools the binary registers itself, so they are added.
 */
export function probeToolEntries(probe: unknown): ToolInfo[] | undefined {
  const p = probe as { tools_list?: { tools?: unknown }; driver?: { source?: unknown } } | undefined;
  const listed = p?.tools_list?.tools;
  if (!Array.isArray(listed)) return undefined;
  return (p?.driver?.source === "sdk" ? withHostTools({ tools: listed }).tools : listed) as ToolInfo[];
}

/** The tool names a probe found: its tools/list's (`probeToolEntries`), else its `list-tools` names. */
export function probeToolNames(probe: unknown): string[] | undefined {
  const entries = probeToolEntries(probe);
  if (entries) return entries.flatMap((t) => (typeof (t as { name?: unknown } | null)?.name === "string" ? [t.name] : []));
  const listed = (probe as { list_tools?: unknown } | undefined)?.list_tools;
  return Array.isArray(listed) ? listed.filter((t): t is string => typeof t === "string") : undefined;
}

/** The probe's whole tools/list result (every top-level field) and whether it is the runtime's own inventory. */
function probeToolsList(probe: unknown): Pick<ReplayCassette, "toolsList"> {
  const p = probe as { tools_list?: unknown; driver?: { source?: unknown } } | undefined;
  const list = p?.tools_list;
  if (!list || typeof list !== "object" || !Array.isArray((list as { tools?: unknown }).tools)) return {};
  return { toolsList: { result: list as Record<string, unknown>, runtimeInventory: p?.driver?.source === "sdk" } };
}

/** Tool annotations from probe.json (`tools_list.tools`), used to tell reads from mutations. */
function probeTools(probe: unknown): ToolInfo[] | undefined {
  const tools = (probe as { tools_list?: { tools?: unknown } } | undefined)?.tools_list?.tools;
  return Array.isArray(tools) ? (tools as ToolInfo[]) : undefined;
}
