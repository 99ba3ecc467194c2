import type { ToolInfo } from "#src/driver/port.js";
import type { CassetteEvent, CassetteHeader } from "#src/schema/cassette.js";
import type { EngineSource } from "./engine/engine.js";
import type { FrameLookup } from "./engine/frames.js";
import { prepareCassette, type PreparedCassette } from "./engine/prepared.js";

/**
 * A cassette for replay: its events and a way to read its frames. `loadReplayCassette` gives one
 * already prepared that reads its events only if `events` is asked for (a replay never does).
 */
export interface ReplayCassette {
  header?: CassetteHeader;
  events: readonly CassetteEvent[];
  /** Base64 of a frame by ref; needed when events cut images out into frames. */
  frame?: FrameLookup;
  /** Tool annotations from the cassette's probe.json, when it has one. */
  tools?: readonly ToolInfo[];
  /**
   * The probe's whole tools/list result; `runtimeInventory` when it is the published runtime's own
   * list (a probe with --driver sdk), which lacks the tools the binary registers itself.
   */
  toolsList?: { result: Record<string, unknown>; runtimeInventory: boolean };
}

/**
 * A cassette parsed into exchanges once, to be replayed many times (each fuzz run, each scenario
 * over it): `createReplayer` then builds no exchanges, epochs or match indexes of its own.
 */
export interface PreparedReplayCassette extends ReplayCassette {
  readonly prepared: PreparedCassette;
  /** The tool annotations the preparation used (a replayer given other tools prepares again: `prepared.withTools`). */
  readonly preparedTools: readonly ToolInfo[] | undefined;
}

/** Prepares a cassette for replay once, so many replays (a fuzz campaign) share the work. */
export function prepareReplayCassette(
  cassette: ReplayCassette | PreparedReplayCassette,
  options: { tools?: readonly ToolInfo[] } = {},
): PreparedReplayCassette {
  const tools = options.tools ?? cassette.tools;
  if ("prepared" in cassette) {
    // already prepared (a cassette file read for replay keeps no events): only the annotations change
    return cassette.preparedTools === tools ? cassette : withPrepared(cassette, cassette.prepared.withTools(tools), tools);
  }
  const prepared = prepareCassette({ events: cassette.events, ...(cassette.frame ? { frame: cassette.frame } : {}), ...(tools ? { tools } : {}) });
  return { ...cassette, prepared, preparedTools: tools };
}

/** The cassette with another preparation; its accessors (events read on demand) are kept, not called. */
function withPrepared(cassette: PreparedReplayCassette, prepared: PreparedCassette, tools: readonly ToolInfo[] | undefined): PreparedReplayCassette {
  const copy = Object.create(Object.getPrototypeOf(cassette) as object, Object.getOwnPropertyDescriptors(cassette)) as PreparedReplayCassette;
  return Object.defineProperties(copy, { prepared: { value: prepared, enumerable: true }, preparedTools: { value: tools, enumerable: true } });
}

/** What an engine is built from: the preparation when it used these tools, else the same recording prepared with them. */
export function engineSource(cassette: ReplayCassette | PreparedReplayCassette, tools: readonly ToolInfo[] | undefined): EngineSource {
  if ("prepared" in cassette) return { prepared: cassette.preparedTools === tools ? cassette.prepared : cassette.prepared.withTools(tools) };
  return { events: cassette.events, ...(cassette.frame ? { frame: cassette.frame } : {}), ...(tools ? { tools } : {}) };
}
