// A fail-closed Python harness (examples/fail-closed-python) recorded with no faults, then replayed
// with every fault kind on its click and on its type_text: a correct harness goes where the recording
// never went (a rebuild, a re-read, the next action after one that did not take effect) and must pass;
// its buggy twins must be caught on per-call CLI, MCP stdio and MCP over HTTP, also after `hang`.
import { execa } from "execa";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingDesktopPrograms } from "../../src/desktop/programs.js";
import { ReplayLogEntrySchema, type RequestEntry } from "../../src/schema/replay-log.js";
import { cliPath, repoRoot, runCli } from "../helpers/run-cli.js";
import { startServeHttp } from "../helpers/serve-http.js";

const EXAMPLE = path.join(repoRoot, "examples/fail-closed-python");
const FAULTS: readonly Record<string, unknown>[] = [
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
const ENV = { HARNESS_TIMEOUT_S: "1.5" };

const work = mkdtempSync(path.join(os.tmpdir(), "off-path-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const missing = await missingDesktopPrograms({ app: ["gtk3-demo"] });
const cassettes: Record<string, string> = {};

beforeAll(async () => {
  for (const transport of ["cli", "mcp"]) {
    cassettes[transport] = path.join(EXAMPLE, "recordings", transport);
    if (missing.length > 0) continue;
    // recorded fresh from the real runtime on a throwaway desktop, with no faults
    const out = path.join(work, `rec-${transport}`);
    const rec = await runCli(["record", "--driver", "sdk:0.21.0", "--desktop", "--out", out, "--", "python3", "harness.py", "--transport", transport], {
      cwd: EXAMPLE,
    });
    expect(rec.exitCode, rec.stderr).toBe(0);
    cassettes[transport] = out;
  }
  if (missing.length > 0) console.warn(`off-path tests replay the bundled recordings: ${missing.join(", ")} not found for a fresh desktop recording`);
}, 120_000);

let planCount = 0;
function plan(tool: string, fault: Record<string, unknown>): string {
  const file = path.join(work, `plan-${planCount++}.json`);
  writeFileSync(file, JSON.stringify({ rules: [{ match: { tool, nth: 1 }, fault }] }));
  return file;
}

interface Run {
  exitCode: number;
  summary: { unmatched: number; synthesized: number; unanswered: number; violations: { id: string }[] };
  requests: RequestEntry[];
  stderr: string;
}

async function replayRun(options: { transport: string; script: string[]; tool: string; fault: Record<string, unknown> }): Promise<Run> {
  const log = path.join(work, `log-${planCount}.jsonl`);
  const r = await execa(
    process.execPath,
    [
      cliPath,
      "replay",
      cassettes[options.transport]!,
      "--faults",
      plan(options.tool, options.fault),
      "--log",
      log,
      "--json",
      "--",
      "python3",
      ...options.script,
      "--transport",
      options.transport,
    ],
    { cwd: EXAMPLE, reject: false, env: ENV },
  );
  const summary = JSON.parse(String(r.stdout).trim().split("\n").at(-1)!) as Run["summary"];
  const entries = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((line) => ReplayLogEntrySchema.parse(JSON.parse(line)));
  return { exitCode: r.exitCode ?? -1, summary, requests: entries.filter((e): e is RequestEntry => e.type === "request"), stderr: String(r.stderr) };
}

/** Runs the jobs two at a time (the machine has two cores). */
async function inPairs<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

describe.each(["cli", "mcp"])("a fail-closed harness over %s, off the recorded path", (transport) => {
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

/** Which invariants each twin breaks, and on which fault (docs/invariants.md). */
const TWINS: { twin: string; tool: string; fault: Record<string, unknown>; expected: Record<string, string[]> }[] = [
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
    expected: { cli: ["rebuild-before-mutation"], mcp: ["rebuild-before-mutation"], http: ["rebuild-before-mutation"] },
  },
  {
    twin: "retarget",
    tool: "click",
    fault: { kind: "refusal", code: "stale_element_token" },
    expected: { cli: ["no-input-after-stale"], mcp: ["no-input-after-stale"], http: ["no-input-after-stale"] },
  },
];

describe("the buggy twins are caught on every transport", () => {
  it.each(TWINS.flatMap((t) => ["cli", "mcp"].map((transport) => ({ ...t, transport }))))(
    "$twin with $fault.kind on $tool over $transport",
    { timeout: 60_000 },
    async ({ twin, tool, fault, transport, expected }) => {
      const run = await replayRun({ transport, script: ["twins.py", twin], tool, fault });
      expect(run.exitCode).toBe(1);
      expect(run.summary.unmatched).toBe(0);
      expect([...new Set(run.summary.violations.map((v) => v.id))].sort()).toEqual(expected[transport]);
      if (twin === "keep-session" && transport === "mcp") {
        // the calls behind the hung one were read and logged, though the stuck process never answered them
        expect(run.summary.unanswered).toBeGreaterThanOrEqual(2);
        expect(run.requests.filter((r) => r.outcome === "unanswered").map((r) => r.tool)).toContain("click");
      }
    },
  );

  it.each(TWINS)(
    "$twin with $fault.kind on $tool over MCP over HTTP (serve --transport http)",
    { timeout: 60_000 },
    async ({ twin, tool, fault, expected }) => {
      const token = "t".repeat(40);
      const { child: server, url } = await startServeHttp({ args: [cassettes.mcp!, "--faults", plan(tool, fault)], token });
      const harness = await execa("python3", ["twins.py", twin, "--transport", "http"], {
        cwd: EXAMPLE,
        reject: false,
        env: { ...ENV, CUA_CONTRACT_MCP_HTTP_URL: url, CUA_DRIVER_RS_MCP_HTTP_TOKEN: token },
      });
      expect(harness.exitCode, String(harness.stderr)).toBe(0);
      server.kill("SIGINT");
      const done = await server;
      const found = [...new Set([...String(done.stderr).matchAll(/violation ([a-z-]+):/g)].map((m) => m[1]!))].sort();
      expect(found).toEqual(expected.http);
      expect(done.exitCode).toBe(1);
      expect(String(done.stderr)).toMatch(/unmatched 0,/);
    },
  );

  it("the fail-closed harness itself passes over HTTP after a hang", { timeout: 60_000 }, async () => {
    const token = "t".repeat(40);
    const { child: server, url } = await startServeHttp({ args: [cassettes.mcp!, "--faults", plan("type_text", { kind: "hang" })], token });
    await execa("python3", ["harness.py", "--transport", "http"], {
      cwd: EXAMPLE,
      env: { ...ENV, CUA_CONTRACT_MCP_HTTP_URL: url, CUA_DRIVER_RS_MCP_HTTP_TOKEN: token },
    });
    server.kill("SIGINT");
    const done = await server;
    expect(String(done.stderr)).not.toMatch(/violation/);
    expect(String(done.stderr)).toMatch(/unmatched 0,/);
    expect(done.exitCode).toBe(0);
  });
});
