/**
 * What `std::env::current_exe()` would be for the shim: the first `cua-driver` on the caller's
 * PATH, symlinks resolved; `"cua-driver"` when there is none (the binary's own fallback).
 */
import { access, constants, realpath } from "node:fs/promises";
import path from "node:path";

export async function resolveBinaryPath(env: Record<string, string>): Promise<string> {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, "cua-driver");
    try {
      await access(candidate, constants.X_OK);
      return await realpath(candidate);
    } catch {}
  }
  return "cua-driver";
}
