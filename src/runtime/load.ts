/**
 * Loads the real cua-driver runtime (`@trycua/cua-driver`) at a given version: a copy the user's
 * project has (the working directory's node_modules first, then the one beside cua-contract) when
 * its version matches, otherwise a private per-version install under the user's cache directory,
 * made once with `npm install --ignore-scripts` (the native library ships as an optional
 * per-platform package, so no install script is needed). Before downloading it says what it will
 * fetch, from where and into where, reports progress, and gives up within seconds when the
 * registry cannot be reached (exit 3).
 */
import { execa } from "execa";
import { chmod, mkdir, readFile, readdir, realpath, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UserError } from "#src/errors.js";
import { REFERENCE_DRIVER_VERSION } from "#src/driver/reference-version.js";
import type { SdkModule } from "./sdk-types.js";
import { npmFailure, npmRegistry, publishedRuntime, publishedSdkVersions, SDK_PACKAGE, type NpmEnv } from "./registry.js";

export { publishedSdkVersions, SDK_PACKAGE };
/** The version cua-contract is built and tested against; used when no version is asked for and the project has none that fits. */
export const DEFAULT_SDK_VERSION = REFERENCE_DRIVER_VERSION;
/** The runtime versions `--driver sdk` takes from the user's project without being asked: from 0.21.0, below 1.0.0. */
export const SDK_VERSION_RANGE = { from: "0.21.0", below: "1.0.0" } as const;

/** What loading the runtime reports to a person waiting for it (the CLI prints these on stderr). */
export type SdkNotice =
  | { kind: "download"; version: string; packages: string[]; downloadBytes?: number | undefined; registry: string; into: string }
  | { kind: "progress"; version: string; bytesOnDisk: number; downloadBytes?: number | undefined; elapsedMs: number }
  | { kind: "installed"; version: string; into: string; elapsedMs: number };

/** Where to look for the published runtime, and whether it may be downloaded. */
export interface LoadSdkOptions {
  /** Root of the private cache (default `$XDG_CACHE_HOME/cua-contract/sdk` or `~/.cache/…`). */
  cacheRoot?: string;
  /** Environment for the `npm` child (tests point `npm_config_registry` elsewhere). */
  env?: Record<string, string | undefined>;
  /** Ignore the project's own copy even when its version matches. */
  skipProjectCopy?: boolean;
  /** Where the user's project is (default: the working directory). */
  cwd?: string;
  /** The flag that asked for the version, named in errors about it (default `--driver`). */
  flag?: string;
  /** Told before a download, during it (about once a second) and after it. */
  onNotice?: (notice: SdkNotice) => void;
}

/** Where a version of the published runtime was found (the project's own, or the private cache). */
export interface SdkLocation {
  version: string;
  /** `project`: a copy in the user's (or cua-contract's own) node_modules; `cache`: a private install. */
  source: "project" | "cache";
  /** The package directory (holds its package.json). */
  packageDir: string;
  /** The ESM entry point to import. */
  entry: string;
}

const loaded = new Map<string, Promise<SdkModule>>();

/** The `@trycua/cua-driver` module at `version` (default: the project's own when it fits, else the pinned one), installing it on first use. */
export async function loadSdk(version?: string, options: LoadSdkOptions = {}): Promise<SdkModule> {
  const location = await locateSdk(version, options);
  const key = location.entry;
  let module = loaded.get(key);
  if (!module) {
    module = importSdk(location);
    loaded.set(key, module);
    module.catch(() => loaded.delete(key));
  }
  return module;
}

const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Where the runtime at `version` (default as for `loadSdk`) lives, installing it into the private cache when needed. */
export async function locateSdk(version?: string, options: LoadSdkOptions = {}): Promise<SdkLocation> {
  const wanted = version ?? (options.skipProjectCopy ? DEFAULT_SDK_VERSION : (await chooseSdk({ cwd: options.cwd })).version);
  if (!EXACT.test(wanted)) {
    throw new UserError(`"${wanted}" is not a version of ${SDK_PACKAGE}`, {
      code: "USAGE",
      field: options.flag ?? "--driver",
      fix: "Write an exact version, e.g. --driver sdk:0.21.0.",
    });
  }
  if (!options.skipProjectCopy) {
    const project = (await projectCopies(options.cwd)).find((c) => c.version === wanted);
    if (project) return project;
  }
  const dir = path.join(options.cacheRoot ?? defaultCacheRoot(), wanted);
  const cached = await readInstalled(path.join(dir, "node_modules", SDK_PACKAGE));
  if (cached && cached.version === wanted) return { ...cached, source: "cache" };
  await installIntoCache({ version: wanted, dir, env: options.env, onNotice: options.onNotice, flag: options.flag ?? "--driver" });
  const installed = await readInstalled(path.join(dir, "node_modules", SDK_PACKAGE));
  if (!installed || installed.version !== wanted) {
    throw new UserError(`installing ${SDK_PACKAGE}@${wanted} into ${dir} left no usable package`, {
      code: "DRIVER_UNAVAILABLE",
      fix: `Remove ${dir} and try again.`,
    });
  }
  return { ...installed, source: "cache" };
}

export interface SdkChoice {
  /** The exact version `--driver sdk` stands for here. */
  version: string;
  /** The project's copy that will be used, when one fits. */
  location?: SdkLocation;
  /** One sentence saying which runtime and why. */
  note: string;
}

/**
 * What a bare `--driver sdk` means in the user's project: the runtime the project itself resolves
 * when its version is in SDK_VERSION_RANGE, else DEFAULT_SDK_VERSION (from the cache, or
 * downloaded once). No network.
 */
export async function chooseSdk(options: { cwd?: string | undefined } = {}): Promise<SdkChoice> {
  const [copy] = await projectCopies(options.cwd);
  if (copy && sdkVersionFits(copy.version)) {
    return { version: copy.version, location: copy, note: `${SDK_PACKAGE} ${copy.version}, your project's copy (${shortPath(copy.packageDir, options.cwd)})` };
  }
  const range = `${SDK_VERSION_RANGE.from} up to, not including, ${SDK_VERSION_RANGE.below}`;
  const note = copy
    ? `your project's ${SDK_PACKAGE} is ${copy.version}, outside the versions --driver sdk picks on its own (${range}); using ${DEFAULT_SDK_VERSION} (--driver sdk:${copy.version} uses yours)`
    : `${SDK_PACKAGE} ${DEFAULT_SDK_VERSION}: your project has no copy of its own (npm install --save-dev ${SDK_PACKAGE} adds one)`;
  return { version: DEFAULT_SDK_VERSION, note };
}

/** Is `version` one `--driver sdk` takes from the project without being asked? */
export function sdkVersionFits(version: string): boolean {
  return (
    EXACT.test(version) &&
    !version.includes("-") &&
    compareVersions(version, SDK_VERSION_RANGE.from) >= 0 &&
    compareVersions(version, SDK_VERSION_RANGE.below) < 0
  );
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).slice(0, 3).map(Number);
  const pb = b.split(/[.-]/).slice(0, 3).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

export function defaultCacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "cua-contract", "sdk");
}

async function installIntoCache(options: { version: string; dir: string; env: NpmEnv; onNotice: LoadSdkOptions["onNotice"]; flag: string }): Promise<void> {
  const notice = options.onNotice ?? (() => {});
  const published = await publishedRuntime(options.version, { env: options.env });
  if (!published) {
    const versions = await publishedSdkVersions({ env: options.env });
    throw new UserError(`${SDK_PACKAGE} has no version ${options.version}`, {
      code: "USAGE",
      field: options.flag,
      fix: `Published versions: ${versions.join(", ")}.`,
    });
  }
  const registry = await npmRegistry(options.env);
  const packages = [`${SDK_PACKAGE}@${options.version}`, ...(published.nativePackage ? [`${published.nativePackage}@${options.version}`] : [])];
  notice({ kind: "download", version: options.version, packages, downloadBytes: published.downloadBytes, registry, into: options.dir });
  const parent = path.dirname(options.dir);
  await mkdir(parent, { recursive: true, mode: 0o700 });
  await chmod(parent, 0o700);
  // Install beside the final directory, then rename: concurrent first uses never see half an install.
  const staging = `${options.dir}.staging-${process.pid}-${Date.now()}`;
  await mkdir(staging, { mode: 0o700 });
  const started = performance.now();
  const ticker = setInterval(() => {
    void diskUsage(staging).then((bytesOnDisk) =>
      notice({ kind: "progress", version: options.version, bytesOnDisk, downloadBytes: published.downloadBytes, elapsedMs: performance.now() - started }),
    );
  }, 1_000);
  try {
    const result = await execa(
      "npm",
      ["install", "--prefix", staging, "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", `${SDK_PACKAGE}@${options.version}`],
      { reject: false, ...(options.env ? { env: options.env } : {}), timeout: 300_000 },
    );
    if (result.exitCode !== 0) {
      const { reason } = npmFailure(undefined, result.stderr);
      throw new UserError(`npm could not install ${SDK_PACKAGE}@${options.version} from ${registry} (${result.timedOut ? "no end within 300 s" : reason})`, {
        code: "DRIVER_UNAVAILABLE",
        fix: `Check the network or npm_config_registry and try again, or install it into your project (npm install --save-dev ${SDK_PACKAGE}@${options.version}).`,
      });
    }
    await rename(staging, options.dir).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
    notice({ kind: "installed", version: options.version, into: options.dir, elapsedMs: performance.now() - started });
  } finally {
    clearInterval(ticker);
    await rm(staging, { recursive: true, force: true });
  }
}

/** Bytes of the files under `dir` (0 when it is gone). */
async function diskUsage(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map((e) =>
        stat(path.join(e.parentPath, e.name)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

function shortPath(dir: string, cwd: string | undefined): string {
  const relative = path.relative(cwd ?? process.cwd(), dir);
  return relative && !relative.startsWith("..") ? relative : dir;
}

/**
 * The copies of the runtime the user's project resolves: the nearest node_modules from `cwd`
 * up, then the one resolved from cua-contract's own location (the same one when cua-contract is
 * installed in that project). Duplicates removed.
 */
async function projectCopies(cwd: string | undefined): Promise<SdkLocation[]> {
  const dirs: string[] = [];
  for (let dir = path.resolve(cwd ?? process.cwd()); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", SDK_PACKAGE);
    if (
      await stat(path.join(candidate, "package.json")).then(
        () => true,
        () => false,
      )
    ) {
      dirs.push(candidate);
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  const own = ownCopyDir();
  if (own) dirs.push(own);
  const copies: SdkLocation[] = [];
  for (const dir of dirs) {
    const real = await realpath(dir).catch(() => dir);
    if (copies.some((c) => c.packageDir === real)) continue;
    const found = await readInstalled(real);
    if (found) copies.push({ ...found, source: "project" });
  }
  return copies;
}

function ownCopyDir(): string | undefined {
  try {
    return path.resolve(path.dirname(fileURLToPath(import.meta.resolve(SDK_PACKAGE))), "..");
  } catch {
    return undefined;
  }
}

async function readInstalled(packageDir: string): Promise<Omit<SdkLocation, "source"> | undefined> {
  let manifest: { name?: string; version?: string; main?: string };
  try {
    manifest = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8")) as typeof manifest;
  } catch {
    return undefined;
  }
  if (manifest.name !== SDK_PACKAGE || !manifest.version) return undefined;
  const entry = path.join(packageDir, manifest.main ?? "dist/index.js");
  const exists = await stat(entry).then(
    () => true,
    () => false,
  );
  return exists ? { version: manifest.version, packageDir, entry } : undefined;
}

async function importSdk(location: SdkLocation): Promise<SdkModule> {
  try {
    return (await import(pathToFileURL(location.entry).href)) as SdkModule;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UserError(`cannot load ${SDK_PACKAGE}@${location.version} from ${location.packageDir} (${reason})`, {
      code: "DRIVER_UNAVAILABLE",
      fix: `The runtime ships native libraries for linux/macOS/windows x64 and arm64; on ${process.platform}-${process.arch} use a real cua-driver binary instead.`,
      cause: error,
    });
  }
}
