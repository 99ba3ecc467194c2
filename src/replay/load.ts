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
  };
}

/** Tool annotations from probe.json (`tools_list.tools`), used to tell reads from mutations. */
function probeTools(probe: unknown): { tools?: ToolInfo[] } {
  const tools = (probe as { tools_list?: { tools?: unknown } } | undefined)?.tools_list?.tools;
  return Array.isArray(tools) ? { tools: tools as ToolInfo[] } : {};
}
