import { readFile, stat } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import type { z } from "zod";
import { UserError, type UserErrorCode } from "#src/errors.js";
import { jsonErrorLine, jsonPathLine } from "./json-error-line.js";

interface ReadJsonOptions {
  file: string;
  code: UserErrorCode;
  what: string;
  fix: string;
  /** A gzip-compressed file (named `*.gz`, or starting with gzip's magic bytes) is read decompressed. */
  gzip?: boolean;
}

/** Reads and parses a JSON file; a missing file or bad JSON is a UserError naming file and line. */
export async function readJsonFile(options: ReadJsonOptions): Promise<unknown> {
  return (await readJsonDocument(options)).value;
}

/** readJsonFile, keeping the text so a validation problem can name its line (parseWith's `text`). */
export async function readJsonDocument(options: ReadJsonOptions): Promise<{ value: unknown; text: string }> {
  let bytes: Buffer;
  // a FIFO or a device would block or never end: refused before it is opened
  const info = await stat(options.file).catch(() => undefined);
  if (info && !info.isFile() && !info.isDirectory()) {
    const kind = info.isFIFO() ? "a FIFO (named pipe)" : info.isCharacterDevice() || info.isBlockDevice() ? "a device" : "not a regular file";
    throw new UserError(`${options.what} is ${kind}, not a JSON file`, { code: options.code, file: options.file, fix: options.fix });
  }
  try {
    bytes = await readFile(options.file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "does not exist" : code === "EISDIR" ? "is a directory, not a JSON file" : `cannot be read (${(error as Error).message})`;
    throw new UserError(`${options.what} ${reason}`, { code: options.code, file: options.file, fix: options.fix });
  }
  const text = (options.gzip && isGzip(options.file, bytes) ? gunzip(bytes, options) : bytes).toString("utf8");
  return { value: parseJsonText({ ...options, text }), text };
}

const GZIP_MAGIC = [0x1f, 0x8b];
/** A compressed document larger than this once decompressed is refused (a gzip bomb, not a snapshot). */
const MAX_GUNZIPPED_BYTES = 256 * 1024 * 1024;

function isGzip(file: string, bytes: Buffer): boolean {
  return file.endsWith(".gz") || (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1]);
}

function gunzip(bytes: Buffer, options: ReadJsonOptions): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_GUNZIPPED_BYTES });
  } catch (error) {
    throw new UserError(`${options.what} is not valid gzip data (${(error as Error).message})`, {
      code: options.code,
      file: options.file,
      fix: "The file is truncated or not gzip-compressed: compress the JSON again (`gzip -k FILE.json` writes FILE.json.gz), or pass the uncompressed JSON.",
    });
  }
}

/** JSON.parse for a file's text: a syntax error is one UserError line naming the file and line. */
export function parseJsonText(options: { text: string; file: string; code: UserErrorCode; what: string; fix: string }): unknown {
  const { text } = options;
  try {
    return JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the text it choked on, newlines included: keep the message on one line.
    const message = (error instanceof Error ? error.message : String(error)).replace(/\r?\n/g, "\\n");
    const at = /position (\d+)/.exec(message);
    const line = at ? text.slice(0, Number(at[1])).split("\n").length : jsonErrorLine(text);
    throw new UserError(`${options.what} is not valid JSON (${message})`, {
      code: options.code,
      file: options.file,
      ...(line ? { line } : {}),
      fix: options.fix,
    });
  }
}

/** Validates parsed JSON with a zod schema; the first problem names its field and the valid values. */
export function parseWith<T>(options: {
  schema: z.ZodType<T>;
  value: unknown;
  file: string;
  code: UserErrorCode;
  what: string;
  fix: string;
  text?: string;
}): T {
  const result = options.schema.safeParse(options.value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.map(String).join(".") : "(root)";
  // An unknown key is on its own line, not its object's.
  const at = issue.code === "unrecognized_keys" && issue.keys[0] !== undefined ? [...issue.path, issue.keys[0]] : issue.path;
  const line = options.text !== undefined ? jsonPathLine(options.text, at) : undefined;
  throw new UserError(`${options.what} is invalid: ${describeIssue(issue)}`, {
    code: options.code,
    file: options.file,
    ...(line ? { line } : {}),
    field,
    fix: options.fix,
  });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_value")
    return `${issue.message.replace(/^Invalid (option|input): expected one of .*$/, "not a valid value")}; valid values: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (issue.code === "unrecognized_keys") return `unknown key ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  return issue.message;
}
