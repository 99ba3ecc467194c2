import { readCassetteSync, readFrame, type Cassette } from "../cassette/index.js";
import type { ReplayCassette } from "./replayer.js";

/** A cassette directory read for replay: events validated, frames read (and hash-checked) on demand. */
export function loadReplayCassette(dir: string): ReplayCassette & { cassette: Cassette } {
  const cassette = readCassetteSync(dir);
  return {
    cassette,
    header: cassette.header,
    events: cassette.events,
    frame: (ref) => readFrame(cassette, ref).toString("base64"),
  };
}
