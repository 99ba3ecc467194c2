import { defineCommand } from "#src/cli/command.js";
import { BLOB_SUFFIX, blobFiles, mergeFuzzBlobs, readFuzzBlobs } from "#src/fuzz/blob.js";
import { CHECK_BLOB_SUFFIX, mergeCheckBlobs, readCheckBlobs } from "#src/check/blob.js";
import { UserError } from "#src/errors.js";
import { distinctFailures, fuzzDocument } from "#src/fuzz/document.js";
import { fuzzJunitSuites } from "#src/fuzz/junit.js";
import { renderSummary } from "#src/fuzz/render.js";
import { renderJunit } from "#src/util/junit.js";
import { checkJunitSuites, renderCheckSummary } from "#src/check/render.js";
import { writeOutputFile } from "#src/report/write-output.js";

export const mergeReportsCommand = defineCommand({
  command: "merge-reports <dirs..>",
  describe: "Merge the blobs of a sharded fuzz campaign or check (--shard i/n --blob DIR) into one verdict and JUnit file",
  builder: (y) =>
    y
      .positional("dirs", { type: "string", array: true, describe: "Folders (or files) holding the shards' blobs" })
      .option("junit", { type: "string", describe: "Write JUnit XML here: one test case per run, as the unsharded campaign writes it" })
      .option("html", { type: "string", describe: "A merged check: write its self-contained HTML report here (the scenarios' verdicts and recordings)" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document (the unsharded fuzz --json document)" }),
  handler: async (args) => {
    const dirs = (args.dirs ?? []).map(String);
    const files = blobFiles(dirs, [BLOB_SUFFIX, CHECK_BLOB_SUFFIX]);
    const checks = files.filter((f) => f.endsWith(CHECK_BLOB_SUFFIX));
    if (checks.length > 0 && checks.length < files.length)
      throw new UserError("these folders hold blobs of a fuzz campaign and of a check", {
        code: "USAGE",
        field: "DIR",
        fix: "Merge one campaign or one check at a time: give each its own --blob folder.",
      });
    if (checks.length > 0) {
      const result = mergeCheckBlobs(readCheckBlobs(checks));
      if (typeof args.junit === "string")
        writeOutputFile({ file: args.junit, flag: "--junit", text: renderJunit({ name: "cua-contract check", suites: checkJunitSuites(result) }) });
      if (typeof args.html === "string") {
        // the report needs sharp (image decoding): loaded only when asked for; the shards' replay logs are not in the blobs
        await (await import("#src/check/report.js")).writeCheckHtml({ file: args.html, result, logs: new Map() });
      }
      const color = !args.json && !process.env.NO_COLOR && process.stdout.isTTY === true;
      process.stdout.write(args.json ? `${JSON.stringify(result, null, 2)}\n` : renderCheckSummary(result, color));
      return result.failed === 0 ? 0 : 1;
    }
    if (typeof args.html === "string")
      throw new UserError("--html writes the report of a merged check; a fuzz campaign has none", {
        code: "USAGE",
        field: "--html",
        fix: "Use --json or --junit for a fuzz campaign, or save its failures as scenarios (fuzz --save) and check them.",
      });
    const merged = mergeFuzzBlobs(readFuzzBlobs(files));
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
