import path from "node:path";
import { cassetteOfScan } from "#src/cassette/scanned.js";
import { CASSETTE_FILE, type Cassette } from "#src/cassette/cassette.js";
import { fileStamp, readScannedEvent, type FileStamp } from "#src/cassette/event-at.js";
import { readCassetteSync, schemaValidators } from "#src/cassette/reader.js";
import type { EventPlace } from "#src/cassette/scan.js";
import { scanCassette } from "#src/cassette/scan.js";
import { assignEpochs, createExchangeBuilder, type AnswerSource, type RecordedExchange } from "#src/replay/engine/exchanges.js";
import { createLru } from "#src/util/lru.js";
import { frameMarker } from "./html/frame-markers.js";
import { recordingCollector, type ReportRecording } from "./html/recording.js";

/**
 * A cassette directory read for a report in one pass, line by line: no event is kept, and no
 * exchange either. The scan pairs requests with answers and assigns epochs; what is kept of each
 * exchange is its epoch and where its request and answer lines are, and `exchangesAt` builds the
 * exchanges of a page again from those lines when the page is written (docs/decisions/0235).
 * `cassette.events` is read in full only if something asks for it.
 */
export function scanRecording(dir: string): { cassette: Cassette; recording: ReportRecording } {
  const file = path.join(dir, CASSETTE_FILE);
  let stamp: FileStamp | undefined;
  const read = (seq: number, place: EventPlace) => readScannedEvent({ file, place, seq, stamp: (stamp ??= fileStamp(file)) });
  const answers: AnswerSource = {
    read,
    frame: frameMarker,
    // each answer is read when its row is built, and again only within that row
    cache: createLru({ maxWeight: 2 ** 20 }),
  };
  const scanned = scanExchanges(dir, answers);
  stamp = fileStamp(file);
  const { lines, count } = scanned;
  const cassette = cassetteOfScan(scanned.scan, () => readCassetteSync(dir, { frames: "skip", probe: "skip" }));
  return {
    cassette,
    recording: {
      count,
      mutations: scanned.mutations,
      // built again from the request line and the answer's line alone, which pairs them as the scan did
      exchangesAt: (start, end) => {
        const again = createExchangeBuilder({ answers });
        const out: RecordedExchange[] = [];
        for (let i = start; i < Math.min(end, count); i++) {
          const at = again.exchanges.length;
          const request = lines.requestOf(i);
          again.add(read(request.seq, request.place), request.place);
          const answer = lines.answerOf(i);
          if (answer) again.add(read(answer.seq, answer.place), answer.place);
          const x = again.exchanges[at];
          if (!x || again.exchanges.length !== at + 1) throw new Error(`exchange ${i} (seq ${request.seq}) did not build again from its lines`);
          x.epoch = lines.epochOf(i);
          out.push(x);
        }
        return out;
      },
      tMs: scanned.seen.tMs,
      frameRefs: [...scanned.seen.frameRefs],
    },
  };
}

// The scan, in a function of its own: the exchanges it builds are let go when it returns (a closure
// made beside the scan's callback would keep them alive through the scope they share).
function scanExchanges(dir: string, answers: AnswerSource) {
  const seen = recordingCollector();
  const lines = exchangeLines();
  // the event being added: an exchange the builder answers from it has its answer on this line
  let atSeq = -1;
  let atPlace: EventPlace | undefined;
  const builder = createExchangeBuilder({ answers, answered: (index) => lines.answer(index, atSeq, atPlace!) });
  // Frames are hash-checked when the report loads them, and a report shows nothing from probe.json.
  const scan = scanCassette({
    dir,
    validators: schemaValidators,
    frames: "skip",
    probe: "skip",
    onEvent: (event, place) => {
      seen.note(event);
      const before = builder.exchanges.length;
      atSeq = event.seq;
      atPlace = place;
      builder.add(event, place);
      for (let i = before; i < builder.exchanges.length; i++) lines.request(i, event.seq, place);
    },
  });
  assignEpochs(builder.exchanges);
  let mutations = 0;
  builder.exchanges.forEach((x, i) => {
    lines.epoch(i, x.epoch);
    if (x.kind === "mutation") mutations++;
  });
  return { scan, seen, lines, count: builder.exchanges.length, mutations };
}

// Per exchange, in numbers only: its epoch, and the seq and place of its request line and of its
// answer's line (seq -1: none). Nine numbers an exchange, in an array that doubles as it fills.
function exchangeLines() {
  const WIDTH = 9;
  let data = new Float64Array(1024 * WIDTH);
  const slot = (i: number) => {
    while ((i + 1) * WIDTH > data.length) {
      const grown = new Float64Array(data.length * 2);
      grown.set(data);
      data = grown;
    }
    return i * WIDTH;
  };
  const put = (at: number, seq: number, place: EventPlace) => {
    data[at] = seq;
    data[at + 1] = place.offset;
    data[at + 2] = place.bytes;
    data[at + 3] = place.line;
  };
  const get = (at: number) => ({ seq: data[at]!, place: { offset: data[at + 1]!, bytes: data[at + 2]!, line: data[at + 3]! } });
  return {
    request(i: number, seq: number, place: EventPlace) {
      const at = slot(i);
      put(at, seq, place);
      data[at + 4] = -1;
    },
    answer(i: number, seq: number, place: EventPlace) {
      put(slot(i) + 4, seq, place);
    },
    epoch(i: number, epoch: number) {
      data[slot(i) + 8] = epoch;
    },
    requestOf: (i: number) => get(i * WIDTH),
    answerOf: (i: number) => (data[i * WIDTH + 4]! < 0 ? undefined : get(i * WIDTH + 4)),
    epochOf: (i: number) => data[i * WIDTH + 8]!,
  };
}
