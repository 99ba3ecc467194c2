/**
 * `--driver sdk[:VERSION]` before a command runs: a bare `sdk` becomes the runtime the user's
 * project resolves when its version fits (else the pinned one), and the command line says which;
 * a runtime that must be downloaded is fetched here, saying what, how big, from where and into
 * where, with progress, or the command stops within seconds when the registry cannot be reached.
 */
import { chooseSdk, DEFAULT_SDK_VERSION, locateSdk, type SdkNotice } from "#src/runtime/load.js";

/** Commands that load the runtime as soon as they start (gate reads kept snapshots first). */
const LOADS_RUNTIME = new Set(["record", "serve", "probe", "verify", "replay"]);

export interface SdkFlagOptions {
  write: (text: string) => void;
  isTTY: boolean;
  cwd?: string;
}

/** `argv` with a bare `--driver sdk` pinned to the version chosen; the runtime located (or installed) first. */
export async function prepareSdkFlag(argv: string[], options: SdkFlagOptions): Promise<string[]> {
  const end = argv.indexOf("--");
  const own = end === -1 ? argv : argv.slice(0, end);
  if (own.some((a) => a === "--help" || a === "-h")) return argv;
  const found = sdkFlag(own);
  if (!found) return argv;
  const out = [...argv];
  let version = found.version;
  if (version === undefined) {
    const choice = await chooseSdk({ cwd: options.cwd });
    options.write(`cua-contract: --driver sdk: ${choice.note}\n`);
    version = choice.version;
    // The pinned version keeps the flag as written, so what a run prints to reproduce it does not change.
    if (version !== DEFAULT_SDK_VERSION) {
      if (found.joined) out[found.index] = `${found.name}=sdk:${version}`;
      else out[found.index + 1] = `sdk:${version}`;
    }
  }
  const command = argv[0] ?? "";
  const loads = LOADS_RUNTIME.has(command) && (command !== "replay" || own.includes("--record-missing"));
  if (loads && /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) {
    await locateSdk(version, { ...(options.cwd ? { cwd: options.cwd } : {}), flag: found.name, onNotice: noticePrinter(options) });
  }
  return out;
}

function sdkFlag(own: string[]): { index: number; name: string; joined: boolean; version: string | undefined } | undefined {
  for (let i = 1; i < own.length; i++) {
    const a = own[i]!;
    const eq = /^(--driver|--sdk)=(.*)$/.exec(a);
    const name = eq ? eq[1]! : a === "--driver" || a === "--sdk" ? a : undefined;
    if (!name) continue;
    const value = eq ? eq[2]! : own[i + 1];
    if (value === undefined) return undefined;
    if (name === "--sdk") return { index: i, name, joined: Boolean(eq), version: value };
    const m = /^sdk(?::(.+))?$/.exec(value);
    if (m) return { index: i, name, joined: Boolean(eq), version: m[1] };
  }
  return undefined;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Notices as lines on stderr: progress rewrites one line on a terminal, else a line every 10 s. */
export function noticePrinter(options: SdkFlagOptions): (notice: SdkNotice) => void {
  let lastLine = 0;
  let open = false;
  return (notice) => {
    if (notice.kind === "download") {
      const size = notice.downloadBytes ? ` (${mb(notice.downloadBytes)} to download)` : "";
      options.write(
        `cua-contract: downloading ${notice.packages.join(" and ")}${size} from ${notice.registry} into ${notice.into}; once: later runs use that copy\n`,
      );
    } else if (notice.kind === "progress") {
      const line = `cua-contract: ${mb(notice.bytesOnDisk)} on disk after ${Math.round(notice.elapsedMs / 1000)} s`;
      if (options.isTTY) {
        options.write(`\r${line}`);
        open = true;
      } else if (notice.elapsedMs - lastLine >= 10_000) {
        lastLine = notice.elapsedMs;
        options.write(`${line}\n`);
      }
    } else {
      options.write(`${open ? "\n" : ""}cua-contract: installed @trycua/cua-driver ${notice.version} in ${Math.round(notice.elapsedMs / 1000)} s\n`);
      open = false;
    }
  };
}
