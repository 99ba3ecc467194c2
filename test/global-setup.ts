import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { skippedSummary } from "./helpers/skipped-summary.js";
import { pruneDist } from "../scripts/prune-dist.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    systemSkipLog: string;
    /** A private directory for the whole run, shared by every project and worker (test/helpers/once-per-run.ts). */
    runDir: string;
  }
}

// End-to-end tests spawn bin/cua-contract.js, which runs the compiled dist/: build it once per run
// (each project runs this setup; the first one builds), and not at all when dist/ is newer than every
// source. Tests that skip for want of a Debian package append to one log; teardown prints one line for them.
export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const once = globalThis as { [BUILT]?: true; [RUN_DIR]?: string };
  if (!once[BUILT]) {
    once[BUILT] = true;
    if (!buildIsFresh(root)) build(root);
    skipPythonShim();
    const runDir = mkdtempSync(path.join(os.tmpdir(), "cua-test-run-"));
    once[RUN_DIR] = runDir;
    process.on("exit", () => rmSync(runDir, { recursive: true, force: true }));
  }
  project.provide("runDir", once[RUN_DIR]!);
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
const RUN_DIR = Symbol.for("cua-contract.test.run-dir");

/**
 * `python3` on PATH may be a version manager's shim (pyenv's is a bash script that runs a dozen more
 * processes, 0.1 s of CPU, before the interpreter), and the tests start a few hundred Python
 * harnesses. For the run, a private directory first on PATH links `python3` to the interpreter the
 * shim resolves to, as `pyenv exec` itself does; the workers and every process they start inherit it.
 */
function skipPythonShim(): void {
  let onPath: string;
  let interpreter: string;
  try {
    onPath = execFileSync("sh", ["-c", "command -v python3"], { encoding: "utf8" }).trim();
    interpreter = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  } catch {
    return; // no python3: the tests that need it say so
  }
  if (!interpreter || !path.isAbsolute(interpreter) || realpathSync(onPath) === realpathSync(interpreter)) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), "cua-test-python-"));
  symlinkSync(interpreter, path.join(dir, "python3"));
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH ?? ""}`;
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
}

function build(root: string): void {
  try {
    execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    // Type errors are reported by the type-check; the emitted JavaScript is still usable.
    const out = String((error as { stdout?: Buffer }).stdout ?? "");
    if (!out.includes("error TS")) throw error;
  }
  pruneDist(root);
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
