import { chmodSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { NODE_SHIM_SOURCE, nativeShimBinary } from "./native-shim.js";

export type ShimKind = "native" | "node";

/**
 * Puts an executable `cua-driver` into the private dir: the native shim when it can be built, else
 * the node script with this node's absolute path in its shebang. Returns what it installed.
 */
export function installShim(options: { dir: string; prefer?: ShimKind | "auto" }): { path: string; kind: ShimKind } {
  const target = path.join(options.dir, "cua-driver");
  const prefer = options.prefer ?? envPreference() ?? "auto";
  const native = prefer === "node" ? undefined : nativeShimBinary();
  if (native) {
    copyFileSync(native, target);
    chmodSync(target, 0o700);
    return { path: target, kind: "native" };
  }
  const body = readFileSync(NODE_SHIM_SOURCE, "utf8");
  writeFileSync(target, `#!${process.execPath}\n${body}`, { mode: 0o700 });
  chmodSync(target, 0o700);
  return { path: target, kind: "node" };
}

function envPreference(): ShimKind | undefined {
  const v = process.env.CUA_CONTRACT_SHIM;
  return v === "native" || v === "node" ? v : undefined;
}
