/**
 * What the npm registry says about the runtime, asked through the user's own `npm` (so its
 * registry, proxy and auth settings apply), with one short attempt: an unreachable registry is
 * reported within seconds, naming the registry asked, instead of after npm's minute of retries.
 */
import { execa } from "execa";
import { UserError } from "#src/errors.js";

export const SDK_PACKAGE = "@trycua/cua-driver";

/** How long one registry question may take before the registry counts as unreachable. */
export const REGISTRY_TIMEOUT_MS = 7_000;

export type NpmEnv = Record<string, string | undefined> | undefined;

/** npm's flags for one quick attempt (no retries, a short socket timeout). */
const QUICK = ["--fetch-retries=0", `--fetch-timeout=${REGISTRY_TIMEOUT_MS}`];

/** The registry npm would ask (`npm config get registry`), as the user configured it. */
export async function npmRegistry(env: NpmEnv): Promise<string> {
  const result = await execa("npm", ["config", "get", "registry"], { reject: false, ...(env ? { env } : {}), timeout: 5_000 });
  const url = result.exitCode === 0 ? result.stdout.trim() : "";
  return url || "https://registry.npmjs.org/";
}

/** The registry could not be asked: exit 3, naming the registry, the reason and what to do. */
export function unreachable(options: { registry: string; reason: string; wanted: string }): UserError {
  return new UserError(`cannot reach the npm registry ${options.registry} to look up ${options.wanted} (${options.reason}); nothing was downloaded`, {
    code: "DRIVER_UNAVAILABLE",
    fix: `Install the runtime into your project while online (npm install --save-dev ${options.wanted}), then --driver sdk uses that copy with no network; or set npm_config_registry to a registry or mirror you can reach.`,
  });
}

/** The published versions of the runtime, oldest first (`npm view … versions --json`). */
export async function publishedSdkVersions(options: { env?: NpmEnv } = {}): Promise<string[]> {
  const result = await npmView([SDK_PACKAGE, "versions"], options.env);
  if (!result.ok) throw unreachable({ registry: await npmRegistry(options.env), reason: result.reason, wanted: SDK_PACKAGE });
  const parsed = result.value;
  return Array.isArray(parsed) ? parsed.map(String) : [String(parsed)];
}

export interface PublishedRuntime {
  version: string;
  /** The package with the native library for this platform, when the version ships one. */
  nativePackage?: string;
  /** Bytes to download (both tarballs), when the registry said. */
  downloadBytes?: number;
}

/**
 * What installing the runtime at `version` would fetch. Undefined when the registry has no such
 * version; a UserError (exit 3) when it cannot be reached within REGISTRY_TIMEOUT_MS.
 */
export async function publishedRuntime(version: string, options: { env?: NpmEnv; platform?: string; arch?: string }): Promise<PublishedRuntime | undefined> {
  const result = await npmView([`${SDK_PACKAGE}@${version}`, "version", "optionalDependencies", "dist.tarball"], options.env);
  if (!result.ok) {
    if (result.code === "E404") return undefined;
    throw unreachable({ registry: await npmRegistry(options.env), reason: result.reason, wanted: `${SDK_PACKAGE}@${version}` });
  }
  const info = (result.value ?? {}) as { version?: string; optionalDependencies?: Record<string, string>; "dist.tarball"?: string };
  if (info.version !== version) return undefined;
  const nativePackage = nativePackageFor(Object.keys(info.optionalDependencies ?? {}), options.platform ?? process.platform, options.arch ?? process.arch);
  const tarballs = [info["dist.tarball"]];
  if (nativePackage) {
    const native = await npmView([`${nativePackage}@${version}`, "dist.tarball"], options.env);
    tarballs.push(native.ok && typeof native.value === "string" ? native.value : undefined);
  }
  const sizes = await Promise.all(tarballs.map((url) => (url ? contentLength(url) : Promise.resolve(undefined))));
  const downloadBytes = sizes.every((s) => s !== undefined) ? sizes.reduce((a, b) => a! + b!, 0) : undefined;
  return { version, ...(nativePackage ? { nativePackage } : {}), ...(downloadBytes ? { downloadBytes } : {}) };
}

/** The optional per-platform package npm would pick here (glibc before musl on Linux). */
export function nativePackageFor(packages: string[], platform: string, arch: string): string | undefined {
  const here = packages.filter((p) => p.includes(`-${platform}-${arch}`));
  return here.find((p) => !p.endsWith("-musl")) ?? here[0];
}

type ViewResult = { ok: true; value: unknown } | { ok: false; code: string | undefined; reason: string };

async function npmView(args: string[], env: NpmEnv): Promise<ViewResult> {
  const result = await execa("npm", ["view", ...args, "--json", ...QUICK], {
    reject: false,
    ...(env ? { env } : {}),
    timeout: REGISTRY_TIMEOUT_MS + 1_500,
  });
  if (result.timedOut) return { ok: false, code: undefined, reason: `no answer within ${Math.round((REGISTRY_TIMEOUT_MS + 1_500) / 1000)} s` };
  const value = parseJson(result.stdout);
  if (result.exitCode === 0) return { ok: true, value };
  return { ok: false, ...npmFailure(value, result.stderr) };
}

/** npm's own reason for a failed `npm view --json`: the JSON error on stdout, else its stderr. */
export function npmFailure(json: unknown, stderr: string): { code: string | undefined; reason: string } {
  const error = (json as { error?: { code?: unknown; summary?: unknown } } | undefined)?.error;
  const code = typeof error?.code === "string" ? error.code : /^npm (?:error|ERR!) code (\S+)/m.exec(stderr)?.[1];
  const summary = typeof error?.summary === "string" ? error.summary : undefined;
  const lines = stderr.split("\n").map((l) => l.replace(/^npm (?:error|ERR!)\s*/, "").trim());
  const text = summary ?? lines.find((l) => /FetchError|reason:|\b404\b/.test(l)) ?? lines.find((l) => l && !/^(code|errno|syscall) |A complete log/.test(l));
  const reason = /reason: (.+)$/.exec(text ?? "")?.[1] ?? text ?? (code ? `npm error ${code}` : "npm gave no reason");
  return { code, reason: reason.trim() };
}

function parseJson(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

async function contentLength(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(5_000) });
    const length = Number(response.headers.get("content-length"));
    return response.ok && length > 0 ? length : undefined;
  } catch {
    return undefined;
  }
}
