import { createHash } from "node:crypto";
import { chmod, mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GateVerdictSchema, type GateVerdict } from "../../schema/gate-verdict.js";

/** `path size mtime` of a file: what a verdict depends on, without reading it. */
export async function stampOf(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return `${path.resolve(file)} ${info ? `${info.size} ${info.mtimeMs}` : "missing"}`;
}

let codeStamp: Promise<string> | undefined;

/** The judging code itself (every file of the probe folder this module was loaded from): a change there invalidates every verdict. */
export function judgingCodeStamp(): Promise<string> {
  codeStamp ??= (async () => {
    const root = fileURLToPath(new URL("../", import.meta.url));
    const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
    return (await Promise.all(files.map(stampOf))).join("\n");
  })();
  return codeStamp;
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
