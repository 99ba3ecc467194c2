import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "#src/cassette/frame-ref.js";

export const SHIM_SOURCE_DIR = fileURLToPath(new URL("../../bin/", import.meta.url));
export const NODE_SHIM_SOURCE = path.join(SHIM_SOURCE_DIR, "cua-driver-shim.cjs");
export const NATIVE_SHIM_SOURCE = path.join(SHIM_SOURCE_DIR, "cua-driver-shim.c");

let cached: string | null | undefined;

/**
 * The compiled native shim, built once per source version with the system C compiler and cached
 * (see docs/decisions/0003-native-shim.md). Undefined when no compiler works: callers use the node shim.
 */
export function nativeShimBinary(): string | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = buildNativeShim() ?? null;
  return cached ?? undefined;
}

function buildNativeShim(): string | undefined {
  if (!existsSync(NATIVE_SHIM_SOURCE)) return undefined;
  const source = readFileSync(NATIVE_SHIM_SOURCE);
  const name = `cua-driver-shim-${sha256Hex(source).slice(0, 12)}-${process.platform}-${process.arch}`;
  for (const dir of cacheDirs()) {
    const target = path.join(dir, name);
    if (existsSync(target)) return target;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!ownedPrivately(dir)) continue;
    } catch {
      continue;
    }
    const tmp = `${target}.${process.pid}.tmp`;
    for (const cc of [process.env.CC, "cc", "gcc", "clang"]) {
      if (!cc) continue;
      const result = spawnSync(cc, ["-O2", "-o", tmp, NATIVE_SHIM_SOURCE], { stdio: "ignore", timeout: 60_000 });
      if (result.status === 0 && existsSync(tmp)) {
        chmodSync(tmp, 0o755);
        renameSync(tmp, target);
        return target;
      }
      rmSync(tmp, { force: true });
    }
    return undefined;
  }
  return undefined;
}

// A shared temp dir is only trusted when it is ours and nobody else can write into it.
function ownedPrivately(dir: string): boolean {
  const st = statSync(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : st.uid;
  return st.uid === uid && (st.mode & 0o022) === 0;
}

function cacheDirs(): string[] {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return [fileURLToPath(new URL("../../dist/shim/", import.meta.url)), path.join(os.tmpdir(), `cua-contract-shim-${uid}`)];
}
