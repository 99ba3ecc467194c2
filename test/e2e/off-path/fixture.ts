// What the off-path tests share (off-path-{cli,mcp,http}.e2e.test.ts, one file per transport so they
// run side by side): the fail-closed example harness, its recordings, the fault kinds and the twins.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingDesktopPrograms } from "#src/desktop/programs.js";
import type { RequestEntry } from "#src/schema/replay-log.js";
import { replay } from "#src/transports/run-replay.js";
import { eachLimited } from "#src/util/each-limited.js";
import { oncePerRun } from "../../helpers/once-per-run.js";
import { repoRoot, runCli } from "../../helpers/run-cli.js";

export const EXAMPLE = path.join(repoRoot, "examples/fail-closed-python");
export const FAULTS: readonly Record<string, unknown>[] = [
  { kind: "hang" },
  { kind: "delay", ms: 50 },
  { kind: "delay", ms: 2500 },
  { kind: "timeout_after_effect" },
  { kind: "timeout_before_effect" },
  { kind: "daemon_down" },
  { kind: "daemon_died_midcall" },
  { kind: "exit", code: 1, stderr: "cua-driver-rs: panicked\n" },
  { kind: "truncated" },
  { kind: "corrupt_image" },
  { kind: "empty" },
  { kind: "refusal", code: "stale_element_token" },
  { kind: "refusal", code: "background_unavailable" },
];
export const ENV = { HARNESS_TIMEOUT_S: "1.5" };

// The file's own scratch directory, made and removed around each file that uses these (the module
// is shared by the files a worker runs, so nothing here may outlive one file).
let work = "";
const missing = await missingDesktopPrograms({ app: ["gtk3-demo"] });
export const cassettes: Record<string, string> = {};

/**
 * Records the example over each transport fresh from the real runtime (before the file's tests), or
 * uses its bundled recordings. A recording is made once per run: the MCP and HTTP files share one.
 */
export function useRecordings(transports: string[]): void {
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), "off-path-"));
    for (const transport of transports) {
      cassettes[transport] = path.join(EXAMPLE, "recordings", transport);
      if (missing.length > 0) continue;
      // recorded fresh from the real runtime on a throwaway desktop, with no faults
      cassettes[transport] = await oncePerRun(`off-path-rec-${transport}`, work, async (out) => {
        const rec = await runCli(["record", "--driver", "sdk:0.21.0", "--desktop", "--out", out, "--", "python3", "harness.py", "--transport", transport], {
          cwd: EXAMPLE,
        });
        if (rec.exitCode !== 0) throw new Error(`record over ${transport} exited ${rec.exitCode}: ${String(rec.stderr)}`);
      });
    }
    if (missing.length > 0) console.warn(`off-path tests replay the bundled recordings: ${missing.join(", ")} not found for a fresh desktop recording`);
  }, 120_000);
}

let planCount = 0;
export function plan(tool: string, fault: Record<string, unknown>): string {
  const file = path.join(work, `plan-${planCount++}.json`);
  writeFileSync(file, JSON.stringify({ rules: [{ match: { tool, nth: 1 }, fault }] }));
  return file;
}

export interface Run {
  exitCode: number;
  summary: { unmatched: number; synthesized: number; unanswered: number; violations: { id: string }[] };
  requests: RequestEntry[];
  stderr: string;
}

/** One replay of the example in this process (the replay API, as `replay --faults PLAN --log LOG` runs it), its output piped. */
export async function replayRun(options: { transport: string; script: string[]; tool: string; fault: Record<string, unknown> }): Promise<Run> {
  const notices: string[] = [];
  const summary = await replay({
    dir: cassettes[options.transport]!,
    command: ["python3", ...options.script, "--transport", options.transport],
    faultsFile: plan(options.tool, options.fault),
    logFile: path.join(work, `log-${planCount}.jsonl`),
    onNotice: (m) => notices.push(m),
    harness: { cwd: EXAMPLE, env: ENV, output: "pipe" },
  });
  return {
    exitCode: summary.exitCode,
    summary,
    requests: summary.entries.filter((e): e is RequestEntry => e.type === "request"),
    stderr: [...notices, summary.harnessOutput?.stderr ?? ""].join("\n"),
  };
}

/** Runs the jobs two at a time (the machine has two cores). */
export async function inPairs<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  await eachLimited(jobs, 2, async (job, i) => {
    out[i] = await job();
  });
  return out;
}

/** Which invariants each twin breaks, and on which fault (docs/invariants.md). */
export const TWINS: { twin: string; tool: string; fault: Record<string, unknown>; expected: Record<string, string[]> }[] = [
  {
    twin: "resend",
    tool: "type_text",
    fault: { kind: "timeout_after_effect" },
    // a new `cua-driver mcp` process is a rebuild of its own; the re-send is still blind
    expected: {
      cli: ["no-replay-after-unknown", "rebuild-before-mutation", "retry-read-only-only"],
      mcp: ["no-replay-after-unknown", "retry-read-only-only"],
      http: ["no-replay-after-unknown", "rebuild-before-mutation", "retry-read-only-only"],
    },
  },
  {
    twin: "resend",
    tool: "type_text",
    fault: { kind: "hang" },
    expected: {
      cli: ["no-replay-after-unknown", "rebuild-before-mutation", "retry-read-only-only"],
      mcp: ["no-replay-after-unknown", "retry-read-only-only"],
      http: ["no-replay-after-unknown", "rebuild-before-mutation", "retry-read-only-only"],
    },
  },
  {
    twin: "keep-session",
    tool: "type_text",
    fault: { kind: "hang" },
    // over MCP stdio it also keeps talking to the stuck process after a read there went unanswered
    expected: { cli: ["rebuild-before-mutation"], mcp: ["no-use-after-hang", "rebuild-before-mutation"], http: ["rebuild-before-mutation"] },
  },
  {
    twin: "retarget",
    tool: "click",
    fault: { kind: "refusal", code: "stale_element_token" },
    expected: { cli: ["no-input-after-stale"], mcp: ["no-input-after-stale"], http: ["no-input-after-stale"] },
  },
];

/**
 * The off-path suite for one transport (recorded fresh, or the bundled recording): the correct
 * harness passes every fault kind on its click and on its type_text, and each buggy twin is caught.
 */
export function offPathSuite(transport: "cli" | "mcp"): void {
  useRecordings([transport]);

  describe(`a fail-closed harness over ${transport}, off the recorded path`, () => {
    it("passes every fault kind on its click and on its type_text: exit 0, nothing unmatched, every synthesized answer logged with its basis", {
      timeout: 240_000,
    }, async () => {
      const cases = ["click", "type_text"].flatMap((tool) => FAULTS.map((fault) => ({ tool, fault })));
      const runs = await inPairs(
        cases.map(
          ({ tool, fault }) =>
            () =>
              replayRun({ transport, script: ["harness.py"], tool, fault }),
        ),
      );
      const failures = runs
        .map((run, i) => ({ run, name: `${cases[i]!.tool} ${JSON.stringify(cases[i]!.fault)}` }))
        .filter(({ run }) => run.exitCode !== 0 || run.summary.unmatched !== 0 || run.summary.violations.length > 0)
        .map(
          ({ run, name }) =>
            `${name}: exit ${run.exitCode}, unmatched ${run.summary.unmatched}, ${run.summary.violations.map((v) => v.id).join(" ")}\n${run.stderr}`,
        );
      expect(failures).toEqual([]);
      for (const run of runs) {
        const synthesized = run.requests.filter((r) => r.synthesized !== undefined);
        expect(run.summary.synthesized).toBe(synthesized.length);
        for (const r of synthesized) {
          expect(r.basis, `#${r.n} ${r.tool}`).toBeDefined();
          expect(r.basis!.source === "cassette" ? r.basis!.seq : r.basis!.source, `#${r.n} ${r.tool}`).toBeDefined();
          expect((r.basis!.detail ?? "").length, `#${r.n} ${r.tool}`).toBeGreaterThan(20);
        }
      }
      // the runs really left the recorded path: a mutation that did not take effect is skipped over
      const before = runs[cases.findIndex((c) => c.tool === "type_text" && c.fault.kind === "timeout_before_effect")]!;
      const skipped = before.requests.find((r) => r.synthesized === "skipped_ahead");
      expect(skipped).toMatchObject({ tool: "click", outcome: "replayed" });
      expect(skipped!.basis?.detail).toMatch(/type_text did not take effect \(timeout_before_effect/);
    });
  });

  describe(`the buggy twins are caught over ${transport}`, () => {
    it.each(TWINS)("$twin with $fault.kind on $tool", { timeout: 60_000 }, async ({ twin, tool, fault, expected }) => {
      const run = await replayRun({ transport, script: ["twins.py", twin], tool, fault });
      expect(run.exitCode).toBe(1);
      expect(run.summary.unmatched).toBe(0);
      expect([...new Set(run.summary.violations.map((v) => v.id))].sort()).toEqual(expected[transport]);
      if (twin === "keep-session" && transport === "mcp") {
        // the calls behind the hung one were read and logged, though the stuck process never answered them
        expect(run.summary.unanswered).toBeGreaterThanOrEqual(2);
        expect(run.requests.filter((r) => r.outcome === "unanswered").map((r) => r.tool)).toContain("click");
      }
    });
  });
}
