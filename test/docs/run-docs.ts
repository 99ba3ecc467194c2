// Runs the docs' shell blocks in order in a fresh clone of the working tree, the way a newcomer
// pastes them: one bash per markdown file (so `cd` and `export` carry to that file's later
// blocks), each command's stdout, stderr and exit status kept apart.
import { spawn, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { extractBlocks, shows, type DocBlock, type DocCommand } from "./doc-blocks.js";

export type DocsMode = "quick" | "all";

/** The markdown files whose shell blocks must work, in reading order. */
export function docFiles(root: string): string[] {
  const md = (dir: string) =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir))
          .filter((f) => f.endsWith(".md"))
          .sort()
          .map((f) => path.join(dir, f))
      : [];
  const examples = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => (e.isDirectory() ? examples(path.join(dir, e.name)) : e.name === "README.md" ? [path.join(dir, e.name)] : []));
  return ["README.md", ...md("docs"), "recordings/README.md", ...examples("examples")].filter((f) => existsSync(path.join(root, f)));
}

export interface CommandOutcome {
  file: string;
  command: DocCommand;
  ran: boolean;
  exit?: number | undefined;
  ms?: number | undefined;
  stdout?: string;
  stderr?: string;
}

export interface DocsRun {
  outcomes: CommandOutcome[];
  failures: string[];
  skippedSlow: number;
}

export interface Clone extends AsyncDisposable {
  path: string;
}

/**
 * A fresh clone of the working tree (committed history plus uncommitted and untracked files).
 * "quick" borrows node_modules (a symlink) and the dist/ the test run just built; "all" installs
 * nothing: the README's own `npm ci` does.
 */
export function cloneWorkingTree(root: string, mode: DocsMode): Clone {
  const base = mkdtempSync(path.join(os.tmpdir(), "cua-docs-"));
  const clone = path.join(base, "cua-contract");
  const git = (args: string[], cwd = root) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  git(["clone", "--quiet", "--shared", root, clone]);
  git(["-c", "advice.detachedHead=false", "checkout", "--quiet", git(["rev-parse", "HEAD"]).trim()], clone);
  const changed = [...git(["diff", "--name-only", "HEAD"]).split("\n"), ...git(["ls-files", "--others", "--exclude-standard"]).split("\n")].filter(Boolean);
  for (const file of changed) {
    const from = path.join(root, file);
    const to = path.join(clone, file);
    if (existsSync(from)) {
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(from, to);
    } else rmSync(to, { force: true });
  }
  if (mode === "quick") {
    symlinkSync(path.join(root, "node_modules"), path.join(clone, "node_modules"));
    cpSync(path.join(root, "dist"), path.join(clone, "dist"), { recursive: true });
  }
  return { path: clone, [Symbol.asyncDispose]: async () => rmSync(base, { recursive: true, force: true }) };
}

/** Runs every block (quick mode: every block not marked slow) and judges each command. */
export async function runDocs(options: { root: string; clone: string; mode: DocsMode; timeoutMs: number; onFile?: (file: string) => void }): Promise<DocsRun> {
  const outcomes: CommandOutcome[] = [];
  let skippedSlow = 0;
  for (const file of docFiles(options.root)) {
    const blocks = extractBlocks(file, readFileSync(path.join(options.clone, file), "utf8"));
    const runnable = blocks.filter((b) => options.mode === "all" || !b.slow);
    skippedSlow += blocks.length - runnable.length;
    if (runnable.length === 0) continue;
    options.onFile?.(file);
    outcomes.push(...(await runFile({ file, blocks: runnable, clone: options.clone, timeoutMs: options.timeoutMs })));
  }
  return { outcomes, failures: outcomes.flatMap(judge), skippedSlow };
}

export async function runFile(options: { file: string; blocks: DocBlock[]; clone: string; timeoutMs: number }): Promise<CommandOutcome[]> {
  const out = mkdtempSync(path.join(os.tmpdir(), "cua-docs-out-"));
  const commands = options.blocks.flatMap((b) => b.commands);
  const script = ["set +e", `cd ${JSON.stringify(options.clone)}`];
  commands.forEach((c, i) => {
    if (c.skipped) return;
    script.push(
      `__t=$(date +%s%N); { ${c.text}\n} >"${out}/${i}.out" 2>"${out}/${i}.err" </dev/null`,
      `echo $? $(( ($(date +%s%N) - __t) / 1000000 )) >"${out}/${i}.rc"`,
    );
  });
  script.push("jobs -p | xargs -r kill 2>/dev/null", "wait 2>/dev/null", "exit 0");
  writeFileSync(path.join(out, "script.sh"), `${script.join("\n")}\n`);
  await runBash(path.join(out, "script.sh"), options.clone, options.timeoutMs);
  const read = (f: string) => (existsSync(path.join(out, f)) ? readFileSync(path.join(out, f), "utf8") : undefined);
  const outcomes = commands.map((command, i): CommandOutcome => {
    const rc = read(`${i}.rc`);
    if (command.skipped) return { file: options.file, command, ran: false };
    const [exit, ms] = (rc ?? "").trim().split(" ").map(Number);
    return { file: options.file, command, ran: rc !== undefined, exit, ms, stdout: read(`${i}.out`) ?? "", stderr: read(`${i}.err`) ?? "" };
  });
  rmSync(out, { recursive: true, force: true });
  return outcomes;
}

function runBash(script: string, cwd: string, timeoutMs: number): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, CUA_CONTRACT_DOCS_TEST: "1" };
  for (const key of Object.keys(env)) if (key.startsWith("VITEST") || key === "NODE_ENV" || key === "TEST") delete env[key];
  // The blocks are what a person types at a terminal; a block about CI says CI=true itself.
  delete env.CI;
  return new Promise((resolve) => {
    const child = spawn("bash", [script], { cwd, env, detached: true, stdio: "ignore" });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(killGroup, timeoutMs);
    child.on("exit", () => {
      clearTimeout(timer);
      killGroup();
      resolve();
    });
  });
}

const clip = (s: string, n = 1500) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** What is wrong with one command's run, as lines naming file:line and the command. */
export function judge(o: CommandOutcome): string[] {
  if (!o.ran) return o.command.skipped ? [] : [`${o.file}:${o.command.line}: never finished (timed out or an earlier command hung): ${o.command.text}`];
  const problems: string[] = [];
  if (o.exit !== o.command.exit) problems.push(`exited ${o.exit}, expected ${o.command.exit}`);
  const stdout = o.command.stdout.join("…");
  const stderr = o.command.stderr.join("…");
  if (stdout && !shows(o.stdout!, stdout)) problems.push(`stdout does not show: ${stdout}`);
  if (stderr && !shows(o.stderr!, stderr)) problems.push(`stderr does not show: ${stderr}`);
  if (problems.length === 0) return [];
  return [`${o.file}:${o.command.line}: ${o.command.text}\n  ${problems.join("; ")}\n  stdout: ${clip(o.stdout!)}\n  stderr: ${clip(o.stderr!)}`];
}
