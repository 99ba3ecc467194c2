import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { CASSETTE_FILE } from "#src/cassette/index.js";
import { UserError } from "#src/errors.js";

/** Cassette directories under each recordings directory (the directory itself, or below it, 4 levels deep). */
export async function findCassettes(dirs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new UserError(`${dir} is not a directory`, {
        code: "BAD_INPUT",
        field: "--recordings",
        fix: "Pass directories that hold cassettes (each a folder with cassette.jsonl).",
      });
    }
    const before = found.length;
    await walk(dir, 0, found);
    if (found.length === before) {
      throw new UserError(`no cassette under ${dir}`, {
        code: "BAD_INPUT",
        field: "--recordings",
        fix: `Record one with \`cua-contract record\`, or pass a folder holding ${CASSETTE_FILE}.`,
      });
    }
  }
  return [...new Set(found)];
}

async function walk(dir: string, depth: number, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && e.name === CASSETTE_FILE)) {
    out.push(dir);
    return;
  }
  if (depth >= 4) return;
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.isDirectory() && e.name !== "frames" && !e.name.startsWith(".")) await walk(path.join(dir, e.name), depth + 1, out);
  }
}
