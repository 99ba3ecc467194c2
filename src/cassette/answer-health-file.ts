/** `answerHealth` over a cassette on disk (what `record` checks after writing one). */
import { answerHealth } from "./answer-health.js";
import { NeedsSchemaCheck, quickValidators } from "./quick-validate.js";
import { scanCassette, type CassetteValidators } from "./scan.js";

export async function cassetteAnswerWarnings(dir: string): Promise<string[]> {
  const run = (validators: CassetteValidators) => {
    const health = answerHealth();
    scanCassette({ dir, validators, frames: "skip", probe: "skip", onEvent: (e) => health.add(e) });
    return health.warnings();
  };
  try {
    return run(quickValidators);
  } catch (error) {
    if (!(error instanceof NeedsSchemaCheck)) throw error;
    return run((await import("./reader.js")).schemaValidators);
  }
}
