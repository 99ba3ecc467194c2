import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take longest (each waits on desktops, harness timeouts or many runs), longest first.
 * On a clean clone (CI) vitest has no timings from an earlier run and orders files by size, which
 * would start these small files last and leave the run waiting on them at the end.
 */
const LONGEST = [
  "live-writers",
  "record-faults-desktop-cli",
  "gate-verify",
  "fuzz-external",
  "record-faults-desktop-mcp",
  "off-path-mcp",
  "record-faults.e2e",
  "pytest-integration",
  "record-missing",
  "off-path-cli",
  "off-path-http",
  "writers/crash",
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = sorted.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`));
    if (timed) return sorted;
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((name) => f.moduleId.includes(name));
      return i < 0 ? LONGEST.length : i;
    };
    // projects keep the order vitest gave them; within one, the longest files first, the rest as they were
    const projects = [...new Set(sorted.map((f) => f.project.name))];
    const order = (f: TestSpecification) => projects.indexOf(f.project.name);
    return [...sorted].sort((a, b) => order(a) - order(b) || rank(a) - rank(b));
  }
}
