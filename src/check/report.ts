import { diffImage } from "#src/harness/screen/diff-image.js";
import { screenChange } from "#src/harness/screen/screen-change.js";
import { writeCheckReport } from "#src/report/write-report.js";
import type { CheckResult } from "#src/schema/check-result.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { loadReplayCassette } from "./replay-cassette.js";

/** Writes the HTML report of a check run, handing it each scenario's replay log and cassette. */
export async function writeCheckHtml(options: { file: string; result: CheckResult; logs: ReadonlyMap<string, ReplayLogEntry[]> }): Promise<void> {
  await writeCheckReport({
    result: options.result,
    out: options.file,
    scenarioExtras: (s) => {
      const log = options.logs.get(s.file);
      const cassette = loadReplayCassette(s.cassette).cassette;
      return { ...(log ? { log } : {}), cassette: { events: cassette.events, dir: cassette.dir } };
    },
    screen: { screenChange, diffImage },
  });
}
