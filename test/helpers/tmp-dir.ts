import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** A private temp dir (0700) removed by its disposer. */
export async function tmpDir(prefix = "cua-contract-test-"): Promise<{ path: string } & AsyncDisposable> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { path: dir, [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }) };
}
