import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { publishedSdkVersions } from "#src/runtime/load.js";
import { defaultProbeCacheRoot } from "#src/probe/snapshot-cache.js";

/** How long the registry's version list is reused before it is asked again. */
export const VERSION_LIST_TTL_MS = 60 * 60 * 1000;

const VersionListSchema = z.object({ fetched_at: z.string(), versions: z.array(z.string()) });

/**
 * The published versions of the runtime, oldest first: the registry's list, kept for an hour in
 * the snapshot cache so a rerun asks no one (`refresh` asks again).
 */
export async function publishedVersions(
  options: { cacheRoot?: string | undefined; refresh?: boolean | undefined; now?: () => number; ask?: () => Promise<string[]> } = {},
): Promise<{ versions: string[]; from: "registry" | "cache" }> {
  const root = options.cacheRoot ?? defaultProbeCacheRoot();
  const file = path.join(root, "versions.json");
  const now = options.now?.() ?? Date.now();
  if (!options.refresh) {
    const text = await readFile(file, "utf8").catch(() => undefined);
    const parsed = text ? VersionListSchema.safeParse(safeJson(text)) : undefined;
    if (parsed?.success && now - Date.parse(parsed.data.fetched_at) < VERSION_LIST_TTL_MS && now >= Date.parse(parsed.data.fetched_at)) {
      return { versions: parsed.data.versions, from: "cache" };
    }
  }
  const versions = await (options.ask ?? (() => publishedSdkVersions()))();
  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700);
  const staging = `${file}.${process.pid}.tmp`;
  await writeFile(staging, `${JSON.stringify({ fetched_at: new Date(now).toISOString(), versions })}\n`, { mode: 0o600 });
  await rename(staging, file);
  return { versions, from: "registry" };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
