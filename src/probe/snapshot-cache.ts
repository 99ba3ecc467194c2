import { chmod, mkdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ProbeSnapshotSchema, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import { erasOfSnapshot } from "#src/contract/era-diff.js";
import { writeFileAtomic } from "#src/util/atomic-file.js";
import { sdkMcpLines } from "#src/transports/sdk/probe-lines.js";
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
  /**
   * The snapshot must say which MCP eras the driver speaks (a contract names `driver.mcp_eras` or
   * `skills`): a snapshot taken without the era steps is not used where they would have found
   * something, and a probe takes them. Cached apart (`<version>.eras.json`), so a snapshot without
   * them stays what the outputs without eras read.
   */
  eras?: boolean | undefined;
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
 * so a complete snapshot (tools/list and metadata; with `eras`, also what the era steps found) is
 * kept after the first probe: a rerun neither installs nor probes. The cache is private (0700
 * directory, 0600 files).
 */
export async function sdkSnapshot(version: string, options: SnapshotCacheOptions = {}): Promise<CachedSnapshot> {
  const eras = options.eras === true;
  const found = await findUsable(version, options);
  if (found) return found;
  const root = options.cacheRoot ?? defaultProbeCacheRoot();
  const file = path.join(root, cacheName(version, eras));
  const snapshot = await probeSdk({ version, timeoutMs: options.timeoutMs, ...(eras ? { mcpLines: sdkMcpLines } : {}) });
  if (!complete(snapshot, version, eras)) return { snapshot, origin: "probe" };
  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700);
  // a concurrent reader never sees half a snapshot
  writeFileAtomic({ file, data: `${JSON.stringify(snapshot, null, 2)}\n`, mode: 0o600 });
  return { snapshot, origin: "probe", file };
}

/**
 * The kept or cached snapshot of `version` that serves: the kept one first, then with `eras` the
 * one cached with the era steps, then the one cached without them. With `eras`, a snapshot taken
 * without them serves only when it already says which eras the driver speaks (a version before
 * the modern era, where the era steps find nothing: src/contract/era-diff.ts).
 */
async function findUsable(version: string, options: SnapshotCacheOptions): Promise<CachedSnapshot | undefined> {
  const eras = options.eras === true;
  if (options.kept) {
    const file = path.join(options.kept, keptSnapshotName(version));
    const snapshot = await readUsable(file, version, eras);
    if (snapshot) return { snapshot, origin: "kept", file };
  }
  if (options.refresh) return undefined;
  const root = options.cacheRoot ?? defaultProbeCacheRoot();
  for (const name of eras ? [cacheName(version, true), cacheName(version, false)] : [cacheName(version, false)]) {
    const file = path.join(root, name);
    const snapshot = await readUsable(file, version, eras);
    if (snapshot) return { snapshot, origin: "cache", file };
  }
  return undefined;
}

/** The cache file of a version's snapshot: whether the era steps were taken is part of its name. */
function cacheName(version: string, eras: boolean): string {
  return eras ? `${version}.eras.json` : `${version}.json`;
}

/** Where the snapshot of `version` would be read from, without probing (kept first, then the cache); with `eras`, only one that serves for them. */
export async function findSnapshotFile(version: string, options: SnapshotCacheOptions = {}): Promise<{ file: string; origin: "kept" | "cache" } | undefined> {
  if (options.eras === true) {
    const found = await findUsable(version, options);
    return found?.file !== undefined && (found.origin === "kept" || found.origin === "cache") ? { file: found.file, origin: found.origin } : undefined;
  }
  if (options.kept) {
    const file = path.join(options.kept, keptSnapshotName(version));
    if (await isFile(file)) return { file, origin: "kept" };
  }
  if (options.refresh) return undefined;
  const file = path.join(options.cacheRoot ?? defaultProbeCacheRoot(), cacheName(version, false));
  return (await isFile(file)) ? { file, origin: "cache" } : undefined;
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/**
 * A snapshot worth keeping: the runtime answered both questions, at the version asked for; with
 * `eras`, it also says which MCP eras the driver speaks (recorded, or known from the version).
 */
function complete(snapshot: ProbeSnapshot, version: string, eras: boolean): boolean {
  if (!(snapshot.driver.source === "sdk" && snapshot.driver.version === version && Boolean(snapshot.tools_list) && Boolean(snapshot.metadata))) return false;
  if (!eras) return true;
  return erasOfSnapshot(snapshot) !== undefined;
}

async function readUsable(file: string, version: string, eras: boolean): Promise<ProbeSnapshot | undefined> {
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
  return parsed.success && complete(parsed.data, version, eras) ? parsed.data : undefined;
}
