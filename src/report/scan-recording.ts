import path from "node:path";
import { cassetteOfScan } from "#src/cassette/scanned.js";
import { CASSETTE_FILE, type Cassette } from "#src/cassette/cassette.js";
import { fileStamp, readScannedEvent, type FileStamp } from "#src/cassette/event-at.js";
import { readCassetteSync, schemaValidators } from "#src/cassette/reader.js";
import { scanCassette } from "#src/cassette/scan.js";
import { assignEpochs, createExchangeBuilder, type AnswerSource } from "#src/replay/engine/exchanges.js";
import { createLru } from "#src/util/lru.js";
import { frameMarker } from "./html/frame-markers.js";
import { recordingCollector, type ReportRecording } from "./html/recording.js";

/**
 * A cassette directory read for a report in one pass, line by line: no event is kept, each answer is
 * read again when its row is built. `cassette.events` is read in full only if something asks for it.
 */
export function scanRecording(dir: string): { cassette: Cassette; recording: ReportRecording } {
  const file = path.join(dir, CASSETTE_FILE);
  let stamp: FileStamp | undefined;
  const answers: AnswerSource = {
    read: (seq, place) => readScannedEvent({ file, place, seq, stamp: (stamp ??= fileStamp(file)) }),
    frame: frameMarker,
    // each answer is read when its row is built, and again only within that row
    cache: createLru({ maxWeight: 2 ** 20 }),
  };
  const builder = createExchangeBuilder({ answers });
  const seen = recordingCollector();
  // Frames are hash-checked when the report loads them, and a report shows nothing from probe.json.
  const scan = scanCassette({
    dir,
    validators: schemaValidators,
    frames: "skip",
    probe: "skip",
    onEvent: (event, place) => {
      seen.note(event);
      builder.add(event, place);
    },
  });
  stamp = fileStamp(file);
  assignEpochs(builder.exchanges);
  const cassette = cassetteOfScan(scan, () => readCassetteSync(dir, { frames: "skip", probe: "skip" }));
  return { cassette, recording: { exchanges: builder.exchanges, tMs: seen.tMs, frameRefs: [...seen.frameRefs] } };
}
