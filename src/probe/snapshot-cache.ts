import { chmod, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ProbeSnapshotSchema, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import { probeSdk } from "./run-sdk.js";

/** Where a candidate's snapshot came from: a published version's (kept, cached, probed now), or one read from the driver's source. */
export type SnapshotOrigin = "kept" | "cache" | "probe" | "source";

export interface CachedSnapshot {
  snapshot: ProbeSnapshot;
  origin: SnapshotOrigin;
  /** The file read or written, when there is one. */
  file?: string;
}

export interface SnapshotCacheOptions {
  /** Root of the cache (default `$XDG_CACHE_HOME/cua-contract/probe`, else `~/.cache/…`). */
  cacheRoot?: string | undefined;
  /** A read-only directory of kept snapshots (`sdk-<version>.probe.json`), asked first. */
  kept?: string | undefined;
  /** Probe again even when a cached snapshot exists (kept snapshots are still used). */
  refresh?: boolean | undefined;
  timeoutMs?: number | undefined;
}

export function defaultProbeCacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "cua-contract", "probe");
}

/** The name a kept snapshot of a published version has (`contracts/snapshots/sdk-0.21.0.probe.json`). */
export function keptSnapshotName(version: string): string {
  return `sdk-${version}.probe.json`;
}

/**
 * The probe snapshot of the published runtime at `version`. A published version never changes,
 * so a complete snapshot (tools/list and metadata) is kept after the first probe: a rerun neither
 * installs nor probes. The cache is private (0700 directory, 0600 files).
 */
export async function sdkSnapshot(version: string, options: SnapshotCacheOptions = {}): Promise<CachedSnapshot> {
  if (options.kept) {
    const file = path.join(options.kept, keptSnapshotName(version));
    const snapshot = await readUsable(file, version);
    if (snapshot) return { snapshot, origin: "kept", file };
  }
  const root = options.cacheRoot ?? defaultProbeCacheRoot();
  const file = path.join(root, `${version}.json`);
  if (!options.refresh) {
    const snapshot = await readUsable(file, version);
    if (snapshot) return { snapshot, origin: "cache", file };
  }
  const snapshot = await probeSdk({ version, timeoutMs: options.timeoutMs });
  if (!complete(snapshot, version)) return { snapshot, origin: "probe" };
  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700);
  // Write beside the final file, then rename: a concurrent reader never sees half a snapshot.
  const staging = `${file}.${process.pid}.tmp`;
  await writeFile(staging, `${JSON.stringify(snapshot, null, 2)}\n`, { mode: 0o600 });
  await rename(staging, file);
  return { snapshot, origin: "probe", file };
}

/** Where the snapshot of `version` would be read from, without reading it (kept first, then the cache). */
export async function findSnapshotFile(version: string, options: SnapshotCacheOptions = {}): Promise<{ file: string; origin: "kept" | "cache" } | undefined> {
  if (options.kept) {
    const file = path.join(options.kept, keptSnapshotName(version));
    if (await isFile(file)) return { file, origin: "kept" };
  }
  if (options.refresh) return undefined;
  const file = path.join(options.cacheRoot ?? defaultProbeCacheRoot(), `${version}.json`);
  return (await isFile(file)) ? { file, origin: "cache" } : undefined;
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/** A snapshot worth keeping: the runtime answered both questions, at the version asked for. */
function complete(snapshot: ProbeSnapshot, version: string): boolean {
  return snapshot.driver.source === "sdk" && snapshot.driver.version === version && Boolean(snapshot.tools_list) && Boolean(snapshot.metadata);
}

async function readUsable(file: string, version: string): Promise<ProbeSnapshot | undefined> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // A damaged or foreign entry is probed again, not trusted.
  const parsed = ProbeSnapshotSchema.safeParse(value);
  return parsed.success && complete(parsed.data, version) ? parsed.data : undefined;
}
