import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { chmod, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GateVerdictSchema, type GateVerdict } from "#src/schema/gate-verdict.js";

/** `path size mtime` of a file: what a verdict depends on, without reading it. */
export async function stampOf(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return `${path.resolve(file)} ${info ? `${info.size} ${info.mtimeMs}` : "missing"}`;
}

/** The folders whose code decides a verdict (the prober's analysis and gate, cassette reading, schemas, helpers). */
const JUDGING_CODE = ["probe", "cassette", "schema", "util", "report", "errors"];

/**
 * The judging code itself, by the stamps of its modules: a change there invalidates every verdict.
 * Synchronous `stat`s: a hundred of them take well under a millisecond, far less than a round
 * through the thread pool.
 */
export function judgingCodeStamp(): string {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const files: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!JUDGING_CODE.includes(entry.name.replace(/\.(js|ts)$/, ""))) continue;
    if (entry.isFile()) files.push(path.join(root, entry.name));
    else if (entry.isDirectory()) {
      for (const e of readdirSync(path.join(root, entry.name), { recursive: true, withFileTypes: true })) {
        if (e.isFile() && /\.(js|ts)$/.test(e.name) && !e.name.endsWith(".d.ts")) files.push(path.join(e.parentPath, e.name));
      }
    }
  }
  return files
    .sort()
    .map((f) => {
      const info = statSync(f, { throwIfNoEntry: false });
      return `${f} ${info ? `${info.size} ${info.mtimeMs}` : "missing"}`;
    })
    .join("\n");
}

export function verdictKey(parts: readonly string[]): string {
  return createHash("sha256").update(parts.join("\n")).digest("hex");
}

export async function readVerdict(cacheRoot: string, key: string): Promise<GateVerdict | undefined> {
  const text = await readFile(path.join(cacheRoot, "verdicts", `${key}.json`), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = GateVerdictSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeVerdict(cacheRoot: string, key: string, verdict: GateVerdict): Promise<void> {
  const dir = path.join(cacheRoot, "verdicts");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(cacheRoot, 0o700);
  await chmod(dir, 0o700);
  const file = path.join(dir, `${key}.json`);
  const staging = `${file}.${process.pid}.tmp`;
  await writeFile(staging, `${JSON.stringify(verdict)}\n`, { mode: 0o600 });
  await rename(staging, file);
}
