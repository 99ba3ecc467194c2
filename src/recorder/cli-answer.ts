import type { CliResponse } from "#src/shim-server/backend.js";

/** What answered one per-call invocation; `recorded: false` keeps it out of the cassette (the driver never ran). */
export interface CliAnswer {
  response: CliResponse;
  recorded: boolean;
}
