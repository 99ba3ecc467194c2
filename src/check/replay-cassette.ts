import type { Cassette } from "#src/cassette/cassette.js";
import type { ToolInfo } from "#src/driver/port.js";
import { loadReplayCassette as readForReplay, probeToolEntries } from "#src/replay/load.js";
import type { KnownTools } from "#src/replay/engine/known-tools.js";
import type { PreparedReplayCassette } from "#src/replay/replayer.js";

export interface LoadedCassette {
  cassette: Cassette;
  /** Parsed into exchanges once; every replayer over it (scenario, fuzz run) reuses them. */
  replay: PreparedReplayCassette;
  /** Tool entries (with annotations) from the probe, when it has them. */
  tools?: ToolInfo[];
  /** The tools its driver offers, from the best evidence it holds (the invariants' `knownTools`). */
  knownTools: KnownTools;
}

const cache = new Map<string, LoadedCassette>();

/** Reads a cassette once per process (scenarios and fuzz runs share cassettes) and adapts it for the replayer. */
export function loadReplayCassette(dir: string): LoadedCassette {
  const hit = cache.get(dir);
  if (hit) return hit;
  let probe: ReturnType<typeof probeToolsOf> = {};
  // prepared once, with the probe's tools (and the host tools a binary adds to the runtime's list)
  const replay = readForReplay(dir, { tools: (json) => (probe = probeToolsOf(json)).tools });
  const loaded: LoadedCassette = { cassette: replay.cassette, replay, ...probe, knownTools: replay.knownTools };
  cache.set(dir, loaded);
  return loaded;
}

function probeToolsOf(probe: unknown): { tools?: ToolInfo[] } {
  const entries = probeToolEntries(probe);
  return entries ? { tools: entries } : {};
}
