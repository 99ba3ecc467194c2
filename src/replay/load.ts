import { readCassetteSync, readFrame, type Cassette } from "../cassette/index.js";
import type { ToolInfo } from "../driver/port.js";
import type { ReplayCassette } from "./replayer.js";

/** A cassette directory read for replay: events validated, frames read (and hash-checked) on demand. */
export function loadReplayCassette(dir: string): ReplayCassette & { cassette: Cassette } {
  const cassette = readCassetteSync(dir);
  return {
    cassette,
    header: cassette.header,
    events: cassette.events,
    frame: (ref) => readFrame(cassette, ref).toString("base64"),
    ...probeTools(cassette.probe),
    ...probeToolsList(cassette.probe),
  };
}

/** The probe's whole tools/list result (every top-level field) and whether it is the runtime's own inventory. */
function probeToolsList(probe: unknown): Pick<ReplayCassette, "toolsList"> {
  const p = probe as { tools_list?: unknown; driver?: { source?: unknown } } | undefined;
  const list = p?.tools_list;
  if (!list || typeof list !== "object" || !Array.isArray((list as { tools?: unknown }).tools)) return {};
  return { toolsList: { result: list as Record<string, unknown>, runtimeInventory: p?.driver?.source === "sdk" } };
}

/** Tool annotations from probe.json (`tools_list.tools`), used to tell reads from mutations. */
function probeTools(probe: unknown): { tools?: ToolInfo[] } {
  const tools = (probe as { tools_list?: { tools?: unknown } } | undefined)?.tools_list?.tools;
  return Array.isArray(tools) ? { tools: tools as ToolInfo[] } : {};
}
