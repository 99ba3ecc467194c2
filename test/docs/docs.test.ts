// Every shell block in README.md, docs/*.md, recordings/README.md and examples/**/README.md, run
// in order in a fresh clone. `npm run test:docs` (CUA_CONTRACT_DOCS=all) runs them all, including those
// marked slow (a desktop recording, the benchmarks, a long fuzz); CUA_CONTRACT_DOCS=quick runs the quick
// ones. `npm test` leaves this file out (vitest.config.ts); CI runs `npm run test:docs` after it.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { cloneWorkingTree, runDocs, type DocsMode } from "./run-docs.js";

const mode: DocsMode = process.env.CUA_CONTRACT_DOCS === "all" ? "all" : "quick";
// A docs block that runs the suite must not start the docs test again inside itself.
const nested = process.env.CUA_CONTRACT_DOCS_TEST === "1";
const timeoutMs = mode === "all" ? 60 * 60_000 : 240_000;

describe.skipIf(nested)(`the docs' shell blocks, in order in a fresh clone (${mode})`, () => {
  it("each command exits as the doc says and shows what the doc shows", { timeout: timeoutMs + 30_000 }, async () => {
    await using clone = cloneWorkingTree(repoRoot, mode);
    const started = Date.now();
    const run = await runDocs({ root: repoRoot, clone: clone.path, mode, timeoutMs });
    const ran = run.outcomes.filter((o) => o.ran).length;
    const notRun = run.outcomes.filter((o) => o.command.skipped).map((o) => `${o.file}:${o.command.line}`);
    process.stdout.write(
      `docs: ${ran} commands ran in ${((Date.now() - started) / 1000).toFixed(0)} s${mode === "quick" ? `; ${run.skippedSlow} slow blocks left to npm run test:docs` : ""}${notRun.length ? `; not run by annotation: ${notRun.join(", ")}` : ""}\n`,
    );
    const slowest = run.outcomes
      .filter((o) => o.ran)
      .sort((a, b) => b.ms! - a.ms!)
      .slice(0, 5);
    process.stdout.write(`docs: slowest: ${slowest.map((o) => `${o.file}:${o.command.line} ${(o.ms! / 1000).toFixed(1)} s`).join(", ")}\n`);
    if (process.env.CUA_CONTRACT_DOCS_FAILURES) writeFileSync(process.env.CUA_CONTRACT_DOCS_FAILURES, run.failures.join("\n\n"));
    expect(ran).toBeGreaterThan(10);
    expect(run.failures.join("\n\n")).toBe("");
  });
});
