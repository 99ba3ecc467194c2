import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "#src/errors.js";
import { readBlobFile, writeBlobFile } from "#src/util/blob-file.js";
import type { FuzzCase } from "./arbitraries/fuzz-case.js";
import type { CampaignFailure, CampaignResult } from "./campaign.js";
import type { Shard } from "./shard.js";

/**
 * One shard's result of a campaign, as `fuzz --shard i/n --blob DIR` writes it for
 * `merge-reports` (docs/decisions/0202): every run's checks and time, the shrunk failures with the
 * line that reproduces each, and what the shards must agree on (seed, runs, harness, bases).
 */
export const BLOB_FORMAT = "cua-contract-fuzz-blob";
export const BLOB_SUFFIX = ".fuzz-blob.json";

const violation = z.object({ check: z.string(), message: z.string() });
export const fuzzBlobSchema = z.object({
  format: z.literal(BLOB_FORMAT),
  version: z.literal(1),
  seed: z.number().int(),
  runs: z.number().int().positive(),
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }),
  harness: z.string(),
  bases: z.array(z.string()),
  perRun: z.array(
    z.object({
      run: z.number().int(),
      seed: z.number().int(),
      checks: z.array(z.string()),
      durationMs: z.number(),
      unshrunkChecks: z.array(z.string()).optional(),
    }),
  ),
  violations: z.number().int(),
  failures: z.array(
    z.object({
      seed: z.number().int(),
      path: z.string(),
      run: z.number().int(),
      violations: z.array(violation),
      /** The shrunk case, as the campaign produced it. */
      fcase: z.custom<FuzzCase>((v) => v !== null && typeof v === "object" && Array.isArray((v as FuzzCase).rules)),
      unshrunkChecks: z.array(z.string()),
      reproduce: z.string(),
    }),
  ),
  /** Wall time of the shard's campaign, milliseconds. */
  durationMs: z.number(),
});
export type FuzzBlob = z.infer<typeof fuzzBlobSchema>;

export const blobFileName = (shard: Shard) => `fuzz-shard-${shard.index}-of-${shard.count}${BLOB_SUFFIX}`;

/** The blob of one shard's campaign. */
export function fuzzBlob(options: {
  result: CampaignResult;
  seed: number;
  runs: number;
  shard: Shard;
  harness: string;
  bases: readonly string[];
  reproduce: (f: CampaignFailure) => string;
  durationMs: number;
}): FuzzBlob {
  const { result } = options;
  return {
    format: BLOB_FORMAT,
    version: 1,
    seed: options.seed,
    runs: options.runs,
    shard: { index: options.shard.index, count: options.shard.count },
    harness: options.harness,
    bases: [...options.bases],
    perRun: result.perRun.map((r) => ({ ...r })),
    violations: result.violations,
    failures: result.failures.map((f) => ({
      seed: f.seed,
      path: f.path,
      run: f.run,
      violations: f.violations,
      fcase: f.fcase,
      unshrunkChecks: f.unshrunkChecks,
      reproduce: options.reproduce(f),
    })),
    durationMs: options.durationMs,
  };
}

/** Writes a blob into `dir` (created 0700): a temp file beside it, written, fsynced, then renamed. */
export function writeFuzzBlob(dir: string, blob: FuzzBlob): string {
  return writeBlobFile({ dir, name: blobFileName(blob.shard), blob });
}

/** The blob files (names ending in one of `suffixes`) in these folders, and the files named. */
export function blobFiles(inputs: readonly string[], suffixes: readonly string[]): string[] {
  const files: string[] = [];
  for (const input of inputs) {
    const stat = statSync(input, { throwIfNoEntry: false });
    if (!stat) throw new UserError(`${input} does not exist`, { code: "USAGE", field: "DIR", fix: "Name the folders the shards wrote with --blob." });
    if (stat.isDirectory()) {
      for (const name of readdirSync(input).sort()) if (suffixes.some((s) => name.endsWith(s))) files.push(path.join(input, name));
    } else files.push(input);
  }
  if (files.length === 0) {
    throw new UserError(`no ${suffixes.join(" or ")} file in ${inputs.join(", ")}`, {
      code: "USAGE",
      field: "DIR",
      fix: "Run each shard with --shard i/n --blob DIR and pass the folders that hold what they wrote.",
    });
  }
  return files;
}

/** Every fuzz blob in these folders (or these files), read and checked. */
export function readFuzzBlobs(inputs: readonly string[]): { file: string; blob: FuzzBlob }[] {
  return blobFiles(inputs, [BLOB_SUFFIX]).map((file) => ({ file, blob: readBlobFile({ file, schema: fuzzBlobSchema, command: "fuzz" }) }));
}

/** What the merged shards say, as one campaign: the result the unsharded run gives, and how each failure is reproduced. */
export interface MergedCampaign {
  seed: number;
  runs: number;
  harness: string;
  bases: string[];
  result: CampaignResult;
  reproduce: (f: CampaignFailure) => string;
  /** The shards' own wall times, milliseconds. */
  shardMs: number[];
}

/**
 * Merges every shard of one campaign. The shards must agree on seed, runs, harness, bases and
 * shard count, and each shard must be there once. Runs are put back in run order; the failures
 * kept are the first `maxShrunk` failing runs in run order, which each shard shrank among its own
 * first ones: what the unsharded campaign shrinks.
 */
export function mergeFuzzBlobs(blobs: readonly { file: string; blob: FuzzBlob }[], maxShrunk = 3): MergedCampaign {
  const first = blobs[0]!;
  const same = (field: "seed" | "runs" | "harness", f: { file: string; blob: FuzzBlob }) => {
    if (f.blob[field] !== first.blob[field]) {
      throw new UserError(
        `${f.file} has ${field} ${String(f.blob[field])}, ${first.file} has ${String(first.blob[field])}: they are not shards of one campaign`,
        {
          code: "USAGE",
          field,
          fix: "Merge the blobs of one campaign: every shard run with the same --seed, --runs, harness and cassettes.",
        },
      );
    }
  };
  const count = first.blob.shard.count;
  const seen = new Map<number, string>();
  for (const f of blobs) {
    same("seed", f);
    same("runs", f);
    same("harness", f);
    if (JSON.stringify(f.blob.bases) !== JSON.stringify(first.blob.bases)) {
      throw new UserError(`${f.file} fuzzed other cassettes than ${first.file}`, {
        code: "USAGE",
        field: "bases",
        fix: "Merge the blobs of one campaign: every shard run with the same --cassette flags.",
      });
    }
    if (f.blob.shard.count !== count) {
      throw new UserError(`${f.file} is shard ${f.blob.shard.index}/${f.blob.shard.count}, ${first.file} is one of ${count}`, {
        code: "USAGE",
        field: "shard",
        fix: "Merge the blobs of one campaign, all run with the same n in --shard i/n.",
      });
    }
    const again = seen.get(f.blob.shard.index);
    if (again) {
      throw new UserError(`shard ${f.blob.shard.index}/${count} is given twice: ${again} and ${f.file}`, {
        code: "USAGE",
        field: "shard",
        fix: "Pass each shard's blob once.",
      });
    }
    seen.set(f.blob.shard.index, f.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    throw new UserError(`shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${count}`).join(", ")} missing`, {
      code: "USAGE",
      field: "shard",
      fix: "Pass the blobs of every shard (a failed CI job still writes its blob; re-run the one that wrote none).",
    });
  }
  const runs = blobs.flatMap((f) => f.blob.perRun).sort((a, b) => a.run - b.run);
  const failingRuns = runs.filter((r) => r.checks.length > 0).map((r) => r.run);
  const kept = new Set(failingRuns.slice(0, maxShrunk));
  // a run its shard shrank but the whole campaign would not have: the checks of its case unshrunk
  const perRun = runs.map(({ unshrunkChecks, ...r }) =>
    kept.has(r.run) ? { ...r, ...(unshrunkChecks ? { unshrunkChecks } : {}) } : { ...r, checks: unshrunkChecks ?? r.checks },
  );
  const all = blobs.flatMap((f) => f.blob.failures).sort((a, b) => a.run - b.run);
  const failures = all.filter((f) => kept.has(f.run));
  const reproduceBySeed = new Map(all.map((f) => [f.seed, f.reproduce]));
  return {
    seed: first.blob.seed,
    runs: first.blob.runs,
    harness: first.blob.harness,
    bases: first.blob.bases,
    result: {
      runs: perRun.length,
      perRun,
      violations: blobs.reduce((n, f) => n + f.blob.violations, 0),
      failures: failures.map(({ reproduce: _r, ...f }) => f),
    },
    reproduce: (f) => reproduceBySeed.get(f.seed) ?? "",
    shardMs: blobs.map((f) => f.blob.durationMs),
  };
}
