import { z } from "zod";
import { UserError } from "#src/errors.js";
import { readBlobFile, writeBlobFile } from "#src/util/blob-file.js";
import { CheckResultSchema, type CheckResult } from "#src/schema/check-result.js";

/**
 * One shard of a `check` over a scenario set, as `check --shard i/n --blob DIR` writes it for
 * `merge-reports` (docs/decisions/0202): its scenarios' results and their places in the whole set.
 */
export const CHECK_BLOB_FORMAT = "cua-contract-check-blob";
export const CHECK_BLOB_SUFFIX = ".check-blob.json";

export const checkBlobSchema = z.object({
  format: z.literal(CHECK_BLOB_FORMAT),
  version: z.literal(1),
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }),
  /** Every scenario file of the whole set, in order (the shards must agree on it). */
  files: z.array(z.string()),
  /** The place in `files` of each scenario this shard ran, in the order of `result.scenarios`. */
  places: z.array(z.number().int().nonnegative()),
  result: CheckResultSchema,
});
export type CheckBlob = z.infer<typeof checkBlobSchema>;

/** Writes a check blob into `dir` (created 0700): a temp file beside it, fsynced, then renamed. */
export function writeCheckBlob(dir: string, blob: CheckBlob): string {
  return writeBlobFile({ dir, name: `check-shard-${blob.shard.index}-of-${blob.shard.count}${CHECK_BLOB_SUFFIX}`, blob });
}

/** The shards of one check merged: the scenarios in the whole set's order, as the unsharded run reports them. */
export function mergeCheckBlobs(blobs: readonly { file: string; blob: CheckBlob }[]): CheckResult {
  const first = blobs[0]!;
  const count = first.blob.shard.count;
  const seen = new Map<number, string>();
  for (const f of blobs) {
    const bad = (field: string, message: string, fix: string) => new UserError(message, { code: "USAGE", field, fix });
    if (f.blob.result.harness !== first.blob.result.harness || JSON.stringify(f.blob.files) !== JSON.stringify(first.blob.files))
      throw bad(
        "files",
        `${f.file} checked another scenario set or harness than ${first.file}`,
        "Merge the blobs of one check: every shard run with the same scenarios and harness.",
      );
    if (f.blob.shard.count !== count)
      throw bad(
        "shard",
        `${f.file} is shard ${f.blob.shard.index}/${f.blob.shard.count}, ${first.file} is one of ${count}`,
        "Run every shard with the same n in --shard i/n.",
      );
    const again = seen.get(f.blob.shard.index);
    if (again) throw bad("shard", `shard ${f.blob.shard.index}/${count} is given twice: ${again} and ${f.file}`, "Pass each shard's blob once.");
    seen.set(f.blob.shard.index, f.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new UserError(`shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${count}`).join(", ")} missing`, {
      code: "USAGE",
      field: "shard",
      fix: "Pass the blobs of every shard.",
    });
  const placed = blobs.flatMap((f) => f.blob.result.scenarios.map((s, i) => ({ place: f.blob.places[i]!, s }))).sort((a, b) => a.place - b.place);
  const scenarios = placed.map((p) => p.s);
  const passed = scenarios.filter((s) => s.passed).length;
  return {
    harness: first.blob.result.harness,
    passed,
    failed: scenarios.length - passed,
    duration_ms: blobs.reduce((t, f) => t + f.blob.result.duration_ms, 0),
    scenarios,
  };
}

export const checkShardFiles = (files: readonly string[], shard: { index: number; count: number }) =>
  files.flatMap((f, i) => (i % shard.count === shard.index - 1 ? [{ f, i }] : []));

/** Reads and checks check blobs. */
export function readCheckBlobs(files: readonly string[]): { file: string; blob: CheckBlob }[] {
  return files.map((file) => ({ file, blob: readBlobFile({ file, schema: checkBlobSchema, command: "check" }) }));
}
