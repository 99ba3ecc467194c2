// Tests that need Debian packages (a desktop under Xvfb, Debian's chromium) ask here first.
// On a machine without them the tests skip and the run ends with one line saying what was skipped
// and how to install it; with CI=true (as .ci/run runs) a missing package fails the file instead.
// CUA_CONTRACT_TEST_HIDE=desktop,chromium (or =all) hides installed packages, to try the bare path.
import { appendFileSync } from "node:fs";
import { inject } from "vitest";
import { findProgram, missingDesktopPrograms } from "#src/desktop/programs.js";
import { INSTALL, type SystemNeed } from "./skipped-summary.js";

/** Debian's chromium, found on PATH (playwright-core drives it; no browser is ever downloaded). */
export async function chromiumPath(): Promise<string | undefined> {
  return hidden("chromium") ? undefined : findProgram("chromium");
}

const hidden = (need: SystemNeed, env: NodeJS.ProcessEnv = process.env) =>
  (env.CUA_CONTRACT_TEST_HIDE ?? "").split(",").some((s) => s.trim() === need || s.trim() === "all");

/** The packages' programs not found here (or hidden by CUA_CONTRACT_TEST_HIDE). */
export async function missingFor(need: SystemNeed, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  if (hidden(need, env)) return [`${need === "desktop" ? "Xvfb" : "chromium"} (hidden by CUA_CONTRACT_TEST_HIDE)`];
  if (need === "chromium") return (await findProgram("chromium")) ? [] : ["chromium"];
  return missingDesktopPrograms({ app: ["gtk3-demo"] });
}

/**
 * Resolves to true when the tests labelled `what` must skip. Records the skip for the run's
 * summary line (test/global-setup.ts prints it); under CI=true a missing package throws.
 */
export async function skipWithout(need: SystemNeed, what: string, log: string | undefined = injectedSkipLog()): Promise<boolean> {
  const missing = await missingFor(need);
  if (missing.length === 0) return false;
  const line = `${what}: ${missing.join(", ")} not found; install with: sudo apt-get install ${INSTALL[need]}`;
  if (process.env.CI === "true") throw new Error(`CI=true and ${line} (.ci/run installs them)`);
  if (log) appendFileSync(log, `${JSON.stringify({ need, what, missing })}\n`);
  return true;
}

function injectedSkipLog(): string | undefined {
  try {
    return (inject as (key: string) => string | undefined)("systemSkipLog");
  } catch {
    return undefined;
  }
}
