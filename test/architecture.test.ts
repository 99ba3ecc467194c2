import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers/run-cli.js";

/**
 * The pure core: these folders take data and return data. They may not import node:*, execa,
 * msw, the MCP SDK, sharp, or touch console, process or timers. I/O lives in the shells around them.
 */
const PURE = [
  "src/schema",
  "src/driver/port.ts",
  "src/driver/clock-virtual.ts",
  "src/driver/catalogue.ts",
  "src/wire",
  "src/harness/core",
  "src/invariants",
  "src/faults",
  "src/replay/engine",
  "src/contract",
  "src/fuzz/arbitraries",
  // the HTML report's renderer and row builders (load-input.ts and write-report.ts are its I/O shell)
  ...["model", "escape", "report-style", "render-report", "compare-shots", "frame-markers", "summarize-result", "cassette-rows", "replay-log-rows", "check-sections"].map((f) => `src/report/html/${f}.ts`),
  "src/import/reconstruct-result.ts",
];

const FORBIDDEN_IMPORT = /^(node:|fs$|path$|os$|child_process$|net$|execa|msw|@modelcontextprotocol\/|sharp|yargs|playwright)/;
const FORBIDDEN_GLOBAL = /\b(console\.|process\.|setTimeout\(|setInterval\(|setImmediate\(|queueMicrotask\()/;

function filesUnder(rel: string): string[] {
  const abs = path.join(repoRoot, rel);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [rel];
  return readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => path.join(rel, f));
}

describe("architecture", () => {
  const files = PURE.flatMap(filesUnder);
  it("has pure files to check", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  it("keeps the pure core free of I/O", () => {
    const offences: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(repoRoot, file), "utf8").split("\n");
      lines.forEach((text, i) => {
        const code = text.replace(/\/\/.*$/, "");
        if (/^\s*\*|^\s*\/\*/.test(text)) return;
        for (const m of code.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
          const spec = m[1] ?? m[2] ?? "";
          if (FORBIDDEN_IMPORT.test(spec)) offences.push(`${file}:${i + 1}: imports ${spec}`);
        }
        if (FORBIDDEN_GLOBAL.test(code)) offences.push(`${file}:${i + 1}: uses ${code.match(FORBIDDEN_GLOBAL)?.[1]}`);
      });
    }
    expect(offences, "move I/O out of the pure core").toEqual([]);
  });
});
