import { createRecordingSink, type RecordingSink } from "#src/cassette/recording-sink.js";
import type { CassetteHeader } from "#src/schema/cassette.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION } from "#src/schema/cassette-format.js";

/** A hand-built header for a sink's unit tests: a synthetic 0.21.0 driver, a fixed date, no redaction section. */
export const SYNTHETIC_HEADER: Omit<CassetteHeader, "transport"> = {
  format: CASSETTE_FORMAT,
  version: CASSETTE_VERSION,
  driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic" },
  recorded_at: "2026-11-29T00:00:00.000Z",
  recorder: { name: "test", version: "0" },
};

/** A recording sink in `dir` for the fake cua-driver 0.21.0 at `location`: a synthetic header, redaction on, dated at the epoch. */
export function syntheticSink(dir: string, location: string): RecordingSink {
  return createRecordingSink({
    dir,
    header: {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      driver: { location, source: "synthetic", version: "0.21.0", platform: "linux" },
      recorded_at: new Date(0).toISOString(),
      recorder: { name: "cua-contract", version: "test" },
      redaction: { enabled: true },
    },
  });
}
