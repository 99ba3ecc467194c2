/**
 * Loads the real cua-driver runtime (`@trycua/cua-driver`) at a given version: the copy the
 * project depends on when the version matches, otherwise a private per-version install under
 * the user's cache directory, made once with `npm install --ignore-scripts` (the native library
 * ships as an optional per-platform package, so no install script is needed).
 */
import { execa } from "execa";
import { chmod, mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UserError } from "#src/errors.js";
import type { SdkModule } from "./sdk-types.js";

export const SDK_PACKAGE = "@trycua/cua-driver";
/** The version the project pins as a devDependency; used when no version is asked for. */
export const DEFAULT_SDK_VERSION = "0.21.0";

export interface LoadSdkOptions {
  /** Root of the private cache (default `$XDG_CACHE_HOME/cua-contract/sdk` or `~/.cache/…`). */
  cacheRoot?: string;
  /** Environment for the `npm` child (tests point `npm_config_registry` elsewhere). */
  env?: Record<string, string | undefined>;
  /** Ignore the project's own copy even when its version matches. */
  skipProjectCopy?: boolean;
}

export interface SdkLocation {
  version: string;
  /** `project`: the copy in this project's node_modules; `cache`: a private install. */
  source: "project" | "cache";
  /** The package directory (holds its package.json). */
  packageDir: string;
  /** The ESM entry point to import. */
  entry: string;
}

const loaded = new Map<string, Promise<SdkModule>>();

/** The `@trycua/cua-driver` module at `version` (default: the pinned one), installing it on first use. */
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

/** Where the runtime at `version` lives, installing it into the private cache when needed. */
export async function locateSdk(version?: string, options: LoadSdkOptions = {}): Promise<SdkLocation> {
  const wanted = version ?? DEFAULT_SDK_VERSION;
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(wanted)) {
    throw new UserError(`"${wanted}" is not a version of ${SDK_PACKAGE}`, {
      code: "USAGE",
      field: "--driver",
      fix: "Write an exact version, e.g. --driver sdk:0.21.0.",
    });
  }
  if (!options.skipProjectCopy) {
    const project = await projectCopy();
    if (project && project.version === wanted) return project;
  }
  const dir = path.join(options.cacheRoot ?? defaultCacheRoot(), wanted);
  const cached = await readInstalled(path.join(dir, "node_modules", SDK_PACKAGE));
  if (cached && cached.version === wanted) return { ...cached, source: "cache" };
  await installIntoCache({ version: wanted, dir, env: options.env });
  const installed = await readInstalled(path.join(dir, "node_modules", SDK_PACKAGE));
  if (!installed || installed.version !== wanted) {
    throw new UserError(`installing ${SDK_PACKAGE}@${wanted} into ${dir} left no usable package`, {
      code: "DRIVER_UNAVAILABLE",
      fix: `Remove ${dir} and try again.`,
    });
  }
  return { ...installed, source: "cache" };
}

/** The published versions of the runtime, newest last (`npm view … versions --json`). */
export async function publishedSdkVersions(options: { env?: Record<string, string | undefined> | undefined } = {}): Promise<string[]> {
  const result = await execa("npm", ["view", SDK_PACKAGE, "versions", "--json"], {
    reject: false,
    ...(options.env ? { env: options.env } : {}),
    timeout: 60_000,
  });
  if (result.exitCode !== 0) {
    throw new UserError(`cannot reach the npm registry to look up ${SDK_PACKAGE} (${firstNpmError(result.stderr)})`, {
      code: "DRIVER_UNAVAILABLE",
      fix: "Check the network or npm_config_registry, or use the version the project already has (--driver sdk).",
    });
  }
  const parsed: unknown = JSON.parse(result.stdout);
  return Array.isArray(parsed) ? parsed.map(String) : [String(parsed)];
}

export function defaultCacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "cua-contract", "sdk");
}

async function installIntoCache(options: { version: string; dir: string; env: LoadSdkOptions["env"] }): Promise<void> {
  const versions = await publishedSdkVersions({ env: options.env });
  if (!versions.includes(options.version)) {
    throw new UserError(`${SDK_PACKAGE} has no version ${options.version}`, {
      code: "USAGE",
      field: "--driver",
      fix: `Published versions: ${versions.join(", ")}.`,
    });
  }
  const parent = path.dirname(options.dir);
  await mkdir(parent, { recursive: true, mode: 0o700 });
  await chmod(parent, 0o700);
  // Install beside the final directory, then rename: concurrent first uses never see half an install.
  const staging = `${options.dir}.staging-${process.pid}-${Date.now()}`;
  await mkdir(staging, { mode: 0o700 });
  try {
    const result = await execa(
      "npm",
      ["install", "--prefix", staging, "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", `${SDK_PACKAGE}@${options.version}`],
      { reject: false, ...(options.env ? { env: options.env } : {}), timeout: 300_000 },
    );
    if (result.exitCode !== 0) {
      throw new UserError(`npm could not install ${SDK_PACKAGE}@${options.version} (${firstNpmError(result.stderr)})`, {
        code: "DRIVER_UNAVAILABLE",
        fix: "Check the network or npm_config_registry and try again.",
      });
    }
    await rename(staging, options.dir).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function projectCopy(): Promise<SdkLocation | undefined> {
  let entryUrl: string;
  try {
    entryUrl = import.meta.resolve(SDK_PACKAGE);
  } catch {
    return undefined;
  }
  const packageDir = path.resolve(path.dirname(fileURLToPath(entryUrl)), "..");
  const found = await readInstalled(packageDir);
  return found ? { ...found, source: "project" } : undefined;
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

function firstNpmError(stderr: string): string {
  const line = stderr.split("\n").find((l) => /npm (error|ERR!)/.test(l) && !/A complete log|^npm error\s*$/.test(l));
  return (line ?? stderr.split("\n")[0] ?? "npm failed").replace(/^npm (error|ERR!)\s*/, "").trim();
}
