// What every kit under test/kits/ shares: a public program kept byte for byte (upstream/, its
// commit in UPSTREAM.json), a recording of it against the real runtime (recording/, with the live
// run's exit code and output in live.json, both made by record-kit.mjs), and a README table of the
// fault matrix that is the one source of the expected verdicts: the test reads the table, replays
// each row's fault and checks the program's exit code, its key line and the invariants violated.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FaultSchema } from "#src/schema/fault-plan.js";
import { replay } from "#src/transports/run-replay.js";
import { eachLimited } from "#src/util/each-limited.js";

export const KITS = path.dirname(new URL(import.meta.url).pathname);

/** kit.json: how the program is run, in live and in replay alike. */
export interface KitSpec {
  /** The program's command line, run in `cwd` (relative to the kit). */
  command: string[];
  cwd: string;
  /** Variables set for the program (the same live and in replay). */
  env: Record<string, string>;
  /** Request fields the replay's matching ignores (`replay --ignore`): values the program makes up anew each run. */
  ignore?: string[];
  /** Regular expressions whose matches in the output make the program's outcome (compared live vs replay). */
  outcome: string[];
}

export interface Upstream {
  repo: string;
  commit: string;
  licence: string;
  /** Each file: where it is in the kit and in the repository, its sha256, and the blob id the repository's tree gives it at `commit`. */
  files: { path: string; upstream_path: string; sha256: string; git_blob: string }[];
  stubs?: { path: string; stands_for: string; why: string }[];
}

export interface Live {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** One row of a kit's README fault table. */
export interface MatrixRow {
  id: string;
  tool: string;
  nth: number;
  fault: Record<string, unknown>;
  exitCode: number;
  keyLine: string;
  violations: string[];
  reasoning: string;
}

export interface Kit {
  name: string;
  dir: string;
  spec: KitSpec;
  upstream: Upstream;
  live: Live;
  rows: MatrixRow[];
}

export function loadKit(name: string): Kit {
  const dir = path.join(KITS, name);
  const json = <T>(file: string) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as T;
  return {
    name,
    dir,
    spec: json<KitSpec>("kit.json"),
    upstream: json<Upstream>("UPSTREAM.json"),
    live: json<Live>("live.json"),
    rows: parseMatrix(readFileSync(path.join(dir, "README.md"), "utf8"), `${name}/README.md`),
  };
}

const cell = (text: string) => text.trim().replace(/^`(.*)`$/s, "$1");

/**
 * The rows of the table under the README's `## Fault matrix` heading:
 * `| id | call | fault | exit | key line | must violate | reasoning |`, the call as `` `tool` #n ``,
 * the fault as inline JSON, `must violate` as invariant ids joined by `, ` or `none`.
 */
export function parseMatrix(readme: string, where: string): MatrixRow[] {
  const section = readme.split(/^## Fault matrix\s*$/m)[1];
  if (section === undefined) throw new Error(`${where}: no "## Fault matrix" section`);
  const lines = section.split("\n").filter((l) => l.startsWith("|"));
  const [header, rule, ...body] = lines;
  if (header === undefined || rule === undefined) throw new Error(`${where}: the fault matrix has no table`);
  const columns = header
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());
  const expected = ["id", "call", "fault", "exit", "key line", "must violate", "reasoning"];
  if (columns.join("|") !== expected.join("|")) throw new Error(`${where}: the table's columns are ${columns.join(", ")}; expected ${expected.join(", ")}`);
  return body.map((line, i) => {
    // a reasoning cell may hold `|` only escaped as `\|`
    const cells = line
      .replace(/\\\|/g, "\u0000")
      .split("|")
      .slice(1, -1)
      .map((c) => c.replace(/\u0000/g, "|"));
    const at = `${where}: row ${i + 1}`;
    if (cells.length !== expected.length) throw new Error(`${at}: ${cells.length} cells, expected ${expected.length}`);
    const [id, call, fault, exit, keyLine, violate, reasoning] = cells as [string, string, string, string, string, string, string];
    const callMatch = /^`([a-z_]+)` #(\d+)$/.exec(call.trim());
    if (!callMatch) throw new Error(`${at}: call "${call.trim()}" is not \`tool\` #n`);
    const parsedFault = FaultSchema.safeParse(JSON.parse(cell(fault)));
    if (!parsedFault.success) throw new Error(`${at}: fault ${cell(fault)}: ${parsedFault.error.message}`);
    const ids =
      cell(violate) === "none"
        ? []
        : cell(violate)
            .split(",")
            .map((s) => s.trim());
    return {
      id: id.trim(),
      tool: callMatch[1]!,
      nth: Number(callMatch[2]),
      fault: parsedFault.data as Record<string, unknown>,
      exitCode: Number(exit.trim()),
      keyLine: cell(keyLine),
      violations: ids.sort(),
      reasoning: reasoning.trim(),
    };
  });
}

export function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** The id git gives these bytes as a blob (`git hash-object`): comparable with the upstream tree's entry. */
export function gitBlobId(file: string): string {
  const bytes = readFileSync(file);
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** What the kit's patterns match in the lines of `text` (the first pattern that matches a line), in order. */
export function outcomeLines(spec: KitSpec, text: string): string[] {
  const patterns = spec.outcome.map((p) => new RegExp(p));
  return text.split("\n").flatMap((line) => {
    for (const p of patterns) {
      const m = p.exec(line);
      if (m) return [m[0]];
    }
    return [];
  });
}

export interface KitRun {
  exitCode: number;
  output: string;
  violations: string[];
  unmatched: number;
}

/** One replay of the kit's program on its recording, with at most one fault rule, in this process. */
export async function replayKit(kit: Kit, work: string, label: string, row?: Pick<MatrixRow, "tool" | "nth" | "fault">): Promise<KitRun> {
  let faultsFile: string | undefined;
  if (row) {
    faultsFile = path.join(work, `${label}.plan.json`);
    writeFileSync(faultsFile, JSON.stringify({ rules: [{ match: { tool: row.tool, nth: row.nth }, fault: row.fault }] }));
  }
  const notices: string[] = [];
  const summary = await replay({
    dir: path.join(kit.dir, "recording"),
    command: kit.spec.command,
    ...(faultsFile ? { faultsFile } : {}),
    ...(kit.spec.ignore ? { ignore: kit.spec.ignore } : {}),
    logFile: path.join(work, `${label}.log.jsonl`),
    onNotice: (m) => notices.push(m),
    harness: { cwd: path.join(kit.dir, kit.spec.cwd), env: kit.spec.env, output: "pipe" },
  });
  const out = summary.harnessOutput ?? { stdout: "", stderr: "" };
  return {
    exitCode: summary.harnessExitCode,
    output: `${out.stdout}\n${out.stderr}\n${notices.join("\n")}`,
    violations: [...new Set(summary.violations.map((v) => v.id))].sort(),
    unmatched: summary.unmatched,
  };
}

export const FAULT_KINDS = [
  "hang",
  "delay",
  "timeout_after_effect",
  "timeout_before_effect",
  "daemon_down",
  "daemon_died_midcall",
  "exit",
  "truncated",
  "corrupt_image",
  "empty",
  "refusal",
] as const;

/**
 * The kit's suite: its upstream files are the recorded bytes, a clean replay ends as the live run
 * did, and every row of its fault matrix gives the verdict the README writes down.
 */
export function kitSuite(name: string, options: { concurrency?: number; timeoutMs?: number } = {}): void {
  const kit = loadKit(name);
  const work = mkdtempSync(path.join(os.tmpdir(), `kit-${name}-`));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  describe(`kit ${name}: ${kit.upstream.repo}@${kit.upstream.commit.slice(0, 12)}`, () => {
    it("keeps the upstream files byte for byte", () => {
      for (const file of kit.upstream.files) {
        expect(sha256(path.join(kit.dir, file.path)), file.path).toBe(file.sha256);
        // the blob id is the repository's own, from its tree at the commit (`git ls-tree COMMIT -- PATH`)
        expect(gitBlobId(path.join(kit.dir, file.path)), file.path).toBe(file.git_blob);
      }
      expect(kit.upstream.commit).toMatch(/^[0-9a-f]{40}$/);
    });

    it("was recorded from the real runtime", () => {
      const header = JSON.parse(readFileSync(path.join(kit.dir, "recording", "cassette.jsonl"), "utf8").split("\n")[0]!) as { driver: { source: string } };
      expect(header.driver.source).toBe("sdk");
      expect(outcomeLines(kit.spec, `${kit.live.stdout}\n${kit.live.stderr}`).length).toBeGreaterThan(0);
    });

    it("a clean replay ends as the live run did", { timeout: 60_000 }, async () => {
      const run = await replayKit(kit, work, "clean");
      expect(run.unmatched).toBe(0);
      expect({ exit: run.exitCode, lines: outcomeLines(kit.spec, run.output) }).toEqual({
        exit: kit.live.exitCode,
        lines: outcomeLines(kit.spec, `${kit.live.stdout}\n${kit.live.stderr}`),
      });
    });

    it("the fault matrix covers every fault kind", () => {
      const kinds = new Set(kit.rows.map((r) => String(r.fault.kind)));
      expect(FAULT_KINDS.filter((k) => !kinds.has(k))).toEqual([]);
      expect(new Set(kit.rows.map((r) => r.id)).size).toBe(kit.rows.length);
    });

    it("every row of the fault matrix gives the verdict its README writes down", { timeout: options.timeoutMs ?? 120_000 }, async () => {
      const runs: KitRun[] = new Array(kit.rows.length);
      // the rows that wait out a harness timeout start first, so the quick ones run beside them
      const waits = (row: MatrixRow) => ["hang", "timeout_after_effect", "timeout_before_effect"].includes(String(row.fault.kind));
      const order = kit.rows.map((row, i) => ({ row, i })).sort((a, b) => Number(waits(b.row)) - Number(waits(a.row)));
      await eachLimited(order, options.concurrency ?? 4, async ({ row, i }) => {
        runs[i] = await replayKit(kit, work, `row-${row.id}`, row);
      });
      const got = kit.rows.map((row, i) => {
        const run = runs[i]!;
        return {
          id: row.id,
          exit: run.exitCode,
          keyLine: run.output.split("\n").some((l) => l.includes(row.keyLine)) ? row.keyLine : `(missing) ${row.keyLine}`,
          violations: run.violations,
          unmatched: run.unmatched,
        };
      });
      const want = kit.rows.map((row) => ({ id: row.id, exit: row.exitCode, keyLine: row.keyLine, violations: row.violations, unmatched: 0 }));
      expect(got).toEqual(want);
    });
  });
}
