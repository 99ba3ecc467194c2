import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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

// End-to-end tests spawn bin/cua-contract.js, which runs the compiled dist/: build it once per run.
// Tests that skip for want of a Debian package append to one log; teardown prints one line for them.
export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  try {
    execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
      cwd: root,
      stdio: "pipe",
    });
  } catch (error) {
    // Type errors are reported by `npm run typecheck`; the emitted JavaScript is still usable.
    const out = String((error as { stdout?: Buffer }).stdout ?? "");
    if (!out.includes("error TS")) throw error;
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
