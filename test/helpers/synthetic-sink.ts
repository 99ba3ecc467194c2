import { createRecordingSink, type RecordingSink } from "#src/cassette/recording-sink.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION } from "#src/schema/cassette-format.js";

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
