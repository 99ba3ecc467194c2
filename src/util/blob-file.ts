import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { UserError } from "#src/errors.js";
import { makePrivateDir, writeFileAtomic } from "./atomic-file.js";

/**
 * A shard's blob (`fuzz|check --shard i/n --blob DIR`): one JSON document written the atomic way
 * (temp file beside, checked writes, fsync, rename; 0600 in a 0700 folder), and read back checked
 * against its schema, naming the file and the command that writes it.
 */
export function writeBlobFile(options: { dir: string; name: string; blob: unknown }): string {
  makePrivateDir(options.dir, "--blob");
  if (!statSync(options.dir).isDirectory()) {
    throw new UserError(`--blob ${options.dir} is not a folder that can be written`, {
      code: "USAGE",
      field: "--blob",
      fix: "Name a folder (created when missing), e.g. --blob blob-report.",
    });
  }
  const file = path.join(options.dir, options.name);
  writeFileAtomic({ file, field: "--blob", data: `${JSON.stringify(options.blob)}\n` });
  return file;
}

/** Reads one blob; not JSON, or not what `command` writes, is a usage error naming the file. */
export function readBlobFile<T>(options: { file: string; schema: z.ZodType<T>; command: "fuzz" | "check" }): T {
  const { file, command } = options;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UserError(`${file} is not JSON`, { code: "USAGE", field: "DIR", fix: `Pass the files ${command} --blob wrote, whole.`, cause: error });
  }
  const parsed = options.schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`${file}: ${issue.path.join(".") || "(top level)"}: ${issue.message}`, {
      code: "USAGE",
      field: issue.path.join(".") || "format",
      fix: `Pass only files that \`${command} --shard i/n --blob DIR\` wrote.`,
    });
  }
  return parsed.data;
}
