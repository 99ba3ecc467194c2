import { defineCommand } from "#src/cli/command.js";
import { mergeFuzzBlobs, readFuzzBlobs } from "#src/fuzz/blob.js";
import { distinctFailures, fuzzDocument } from "#src/fuzz/document.js";
import { fuzzJunitSuites } from "#src/fuzz/junit.js";
import { renderSummary } from "#src/fuzz/render.js";
import { renderJunit } from "#src/util/junit.js";
import { writeOutputFile } from "#src/report/write-output.js";

export const mergeReportsCommand = defineCommand({
  command: "merge-reports <dirs..>",
  describe: "Merge the blobs of a sharded fuzz campaign (fuzz --shard i/n --blob DIR) into one verdict, JUnit file and report",
  builder: (y) =>
    y
      .positional("dirs", { type: "string", array: true, describe: "Folders (or files) holding the shards' blobs" })
      .option("junit", { type: "string", describe: "Write JUnit XML here: one test case per run, as the unsharded campaign writes it" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document (the unsharded fuzz --json document)" }),
  handler: async (args) => {
    const dirs = (args.dirs ?? []).map(String);
    const merged = mergeFuzzBlobs(readFuzzBlobs(dirs));
    const { result, seed, harness, reproduce } = merged;
    if (typeof args.junit === "string")
      writeOutputFile({
        file: args.junit,
        flag: "--junit",
        text: renderJunit({ name: "cua-contract fuzz", suites: fuzzJunitSuites({ result, harness, seed, reproduce }) }),
      });
    const baseName = (f: { fcase: { base: number } }) => merged.bases[f.fcase.base];
    if (args.json) {
      process.stdout.write(`${JSON.stringify(fuzzDocument({ result, seed, harness, reproduce, baseName }), null, 2)}\n`);
    } else {
      const color = !process.env.NO_COLOR && process.stdout.isTTY === true;
      for (const { failure: f, sameCase } of distinctFailures(result.failures)) {
        const also = sameCase.length > 0 ? ` (also runs ${sameCase.join(", ")})` : "";
        process.stdout.write(`✗ run ${f.run} (seed ${f.seed}) over ${baseName(f) ?? "?"}${also}: ${f.violations.map((v) => v.check).join(", ")}\n`);
        process.stdout.write(`    reproduce: ${reproduce(f)}\n`);
      }
      process.stdout.write(renderSummary({ result, seed, harness, bases: merged.bases.length, color }));
      process.stdout.write(`  merged       ${merged.shardMs.length} shards\n`);
    }
    return result.violations === 0 ? 0 : 1;
  },
});
