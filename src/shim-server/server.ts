import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { ShimBackend } from "./backend.js";
import { handleConnection } from "./connection.js";
import { installShim, type ShimKind } from "./shim-files.js";

export interface ShimServer {
  /** The private directory (0700) holding `cua-driver` and the socket (0600). */
  dir: string;
  shimPath: string;
  socketPath: string;
  shimKind: ShimKind;
  /** What the harness needs: PATH with the shim dir first, CUA_DRIVER = the shim's absolute path. */
  env: { PATH: string; CUA_DRIVER: string };
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface StartShimServerOptions {
  backend: ShimBackend;
  /** The PATH the harness would have seen (default: this process's PATH). */
  path?: string;
  /** `auto` (default) uses the native shim when a C compiler is present; env CUA_CONTRACT_SHIM overrides. */
  shim?: ShimKind | "auto";
  /** Called when a connection fails in a way no shim can report (for logs); default: ignore. */
  onError?: (error: unknown) => void;
}

/**
 * Starts the session server: a private dir with an executable `cua-driver` shim and a unix socket.
 * Each shim invocation is one connection; the backend answers it (recorder or replayer).
 */
export async function startShimServer(options: StartShimServerOptions): Promise<ShimServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cua-shim-"));
  chmodSync(dir, 0o700);
  const socketPath = path.join(dir, "s.sock");
  const shim = installShim({ dir, prefer: options.shim ?? "auto" });
  const originalPath = options.path ?? process.env.PATH ?? "";
  const originalCuaDriver = process.env.CUA_DRIVER;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    handleConnection({
      socket,
      backend: options.backend,
      cleanEnv: (env) => cleanEnv({ env, dir, originalCuaDriver }),
      onError: options.onError ?? (() => {}),
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await options.backend.close?.();
      rmSync(dir, { recursive: true, force: true });
    })());
  return {
    dir,
    shimPath: shim.path,
    socketPath,
    shimKind: shim.kind,
    env: { PATH: originalPath ? `${dir}${path.delimiter}${originalPath}` : dir, CUA_DRIVER: shim.path },
    close,
    [Symbol.asyncDispose]: close,
  };
}

// The backend sees the harness's environment without the shim: no shim dir on PATH, CUA_DRIVER as it was.
function cleanEnv(options: { env: Record<string, string>; dir: string; originalCuaDriver: string | undefined }) {
  const env = { ...options.env };
  if (env.PATH !== undefined) {
    env.PATH = env.PATH.split(path.delimiter)
      .filter((p) => p !== options.dir)
      .join(path.delimiter);
  }
  if (env.CUA_DRIVER?.startsWith(options.dir + path.sep)) {
    if (options.originalCuaDriver === undefined) delete env.CUA_DRIVER;
    else env.CUA_DRIVER = options.originalCuaDriver;
  }
  return env;
}
