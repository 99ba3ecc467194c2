import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { skippedSummary } from "./helpers/skipped-summary.js";

declare module "vitest" {
  export interface ProvidedContext {
    systemSkipLog: string;
  }
}

// End-to-end tests spawn bin/cua-contract.js, which runs the compiled dist/: build it once per run
// (each project runs this setup; the first one builds), and not at all when dist/ is newer than every
// source. Tests that skip for want of a Debian package append to one log; teardown prints one line for them.
export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const once = globalThis as { [BUILT]?: true };
  if (!once[BUILT]) {
    once[BUILT] = true;
    if (!buildIsFresh(root)) build(root);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "cua-test-skips-"));
  const log = path.join(dir, "skipped.jsonl");
  project.provide("systemSkipLog", log);
  return () => {
    let text = "";
    try {
      text = readFileSync(log, "utf8");
    } catch {
      // nothing skipped
    }
    rmSync(dir, { recursive: true, force: true });
    const line = skippedSummary(text);
    if (line) process.stdout.write(`\n${line}\n`);
  };
}

const BUILT = Symbol.for("cua-contract.test.built");

function build(root: string): void {
  try {
    execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    // Type errors are reported by the type-check; the emitted JavaScript is still usable.
    const out = String((error as { stdout?: Buffer }).stdout ?? "");
    if (!out.includes("error TS")) throw error;
  }
  // tsc leaves the record alone when nothing changed: mark it checked, or a touched file would rebuild every run
  const now = new Date();
  utimesSync(path.join(root, "dist/.tsbuildinfo"), now, now);
}

/**
 * Whether the incremental build's record (dist/.tsbuildinfo) is newer than every file and folder
 * under src/ and the configuration it reads. A folder's time covers a file added, renamed or removed.
 * An up-to-date `tsc -p tsconfig.build.json` still costs about 1.5 s of CPU to find it has nothing to do.
 */
function buildIsFresh(root: string): boolean {
  let built: number;
  try {
    built = statSync(path.join(root, "dist/.tsbuildinfo")).mtimeMs;
  } catch {
    return false;
  }
  const newer = (file: string) => statSync(file).mtimeMs > built;
  if (["package.json", "tsconfig.json", "tsconfig.build.json"].some((f) => newer(path.join(root, f)))) return false;
  const walk = (dir: string): boolean => {
    if (newer(dir)) return false;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() ? !walk(full) : newer(full)) return false;
    }
    return true;
  };
  return walk(path.join(root, "src"));
}
