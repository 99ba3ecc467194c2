import { diffImage } from "../harness/screen/diff-image.js";
import { screenChange } from "../harness/screen/screen-change.js";
import { writeCheckReport } from "../report/write-report.js";
import type { CheckResult } from "../schema/check-result.js";
import type { ReplayLogEntry } from "../schema/replay-log.js";
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
