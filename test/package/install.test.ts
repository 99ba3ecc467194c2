// The package as a new user meets it: the README's "Use it in your project" section, run as written
// in a fresh clone — which packs the checkout, installs the tarball into a new project in a
// sibling folder (with that project's own @trycua/cua-driver 0.28.2, vitest and TypeScript), and
// runs every command there: check, record with --driver sdk headless (the warning) and on a
// desktop, inspect, replay, probe (the project's runtime; a download; no registry: exit 3 within
// 10 s), gate, the TypeScript example under node16 and bundler resolution, the vitest example, the
// pytest plugin pip-installed into a venv with its example, check --cmd, fuzz, report.
// Slow (a few minutes): `npm run test:install`, which .ci/run runs; `npm test` leaves it out.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractBlocks } from "../docs/doc-blocks.js";
import { cloneWorkingTree, judge, runFile } from "../docs/run-docs.js";
import { repoRoot } from "../helpers/run-cli.js";

const enabled = process.env.CUA_CONTRACT_INSTALL_TEST === "1";
const TIMEOUT_MS = 25 * 60_000;

/** The README's shell blocks from "## Use it in your project" up to "## Develop", slow ones included. */
function userSection(markdown: string) {
  const lines = markdown.split("\n");
  const from = lines.findIndex((l) => l.startsWith("## Use it in your project")) + 1;
  const to = lines.findIndex((l) => l.startsWith("## Develop")) + 1;
  return extractBlocks("README.md", markdown).filter((b) => b.line > from && b.line < to);
}

describe.skipIf(!enabled)("the README's user section, in a project that installed the packed package", () => {
  it("runs as written", { timeout: TIMEOUT_MS + 60_000 }, async () => {
    await using clone = cloneWorkingTree(repoRoot, "quick");
    const blocks = userSection(readFileSync(path.join(clone.path, "README.md"), "utf8"));
    const commands = blocks.flatMap((b) => b.commands);
    expect(commands.some((c) => c.text.includes("npm pack"))).toBe(true);
    const outcomes = await runFile({ file: "README.md", blocks, clone: clone.path, timeoutMs: TIMEOUT_MS });
    const slowest = outcomes.filter((o) => o.ran).sort((a, b) => b.ms! - a.ms!);
    process.stdout.write(
      `install: ${outcomes.filter((o) => o.ran).length} commands; slowest: ${slowest
        .slice(0, 4)
        .map((o) => `README.md:${o.command.line} ${(o.ms! / 1000).toFixed(1)} s`)
        .join(", ")}\n`,
    );
    expect(outcomes.flatMap(judge).join("\n\n")).toBe("");

    const ran = (text: string) => {
      const found = outcomes.find((o) => o.command.text.includes(text));
      if (!found?.ran) throw new Error(`the README no longer runs ${text}`);
      return found;
    };
    // not a step left out: each acceptance item is a command that ran and passed
    const offline = ran("npm_config_registry=http://127.0.0.1:9/");
    expect(offline.exit).toBe(3);
    expect(offline.ms!).toBeLessThan(10_000);
    expect(ran("record --driver sdk --desktop").stderr).toContain("@trycua/cua-driver 0.28.2, your project's copy");
    expect(ran("replay rec --").exit).toBe(0);
    // vitest colours its summary
    const plain = (text: string | undefined) => (text ?? "").replace(/\x1b\[[0-9;]*m/g, "");
    expect(plain(ran("npx vitest run examples/vitest").stdout)).toMatch(/Tests\s+\d+ passed/);
    expect(ran("--module node16").exit).toBe(0);
    expect(ran("--moduleResolution bundler").exit).toBe(0);
    expect(ran("pip install").exit).toBe(0);
    expect(plain(ran("pytest -q examples/pytest").stdout)).toMatch(/\d+ passed/);
  });
});

/** The `run: |` script of the step named `name` in a GitHub workflow file (its block, dedented). */
function stepScript(yaml: string, name: string): string {
  const lines = yaml.split("\n");
  const at = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  const run = lines.findIndex((l, i) => i > at && /^\s+run: \|\s*$/.test(l));
  if (at === -1 || run === -1) throw new Error(`no step "${name}" with a run block`);
  const indent = /^(\s*)/.exec(lines[run + 1]!)![1]!.length;
  const body: string[] = [];
  for (const l of lines.slice(run + 1)) {
    if (l.trim() !== "" && /^(\s*)/.exec(l)![1]!.length < indent) break;
    body.push(l.slice(indent));
  }
  return body.join("\n");
}

describe.skipIf(!enabled)("examples/ci/driver-bump.yml in a consumer repository", () => {
  it("passes the pinned runtime and fails the bump that breaks the contract, with the installed package only", { timeout: 10 * 60_000 }, async () => {
    const { execa } = await import("execa");
    const { mkdtempSync, rmSync, cpSync, mkdirSync } = await import("node:fs");
    const os = await import("node:os");
    const work = mkdtempSync(path.join(os.tmpdir(), "cua-consumer-"));
    try {
      const sh = (command: string, env: Record<string, string> = {}) =>
        execa("bash", ["-c", command], { cwd: path.join(work, "app"), env: { ...env, CI: "" }, reject: false, all: true });
      const packed = await execa("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], { cwd: repoRoot });
      const tarball = path.join(work, packed.stdout.trim().split("\n").at(-1)!);
      mkdirSync(path.join(work, "app"));
      const setup = await sh(
        `npm init -y >/dev/null && npm pkg set type=module && npm install --save-dev --no-audit --no-fund ${JSON.stringify(tarball)} @trycua/cua-driver@0.21.0`,
      );
      expect(setup.exitCode, setup.all).toBe(0);
      // the consumer's own recording and contract (here: the package's recording, and a contract made from its probe)
      mkdirSync(path.join(work, "app", "cassettes"));
      cpSync(path.join(work, "app", "node_modules", "cua-contract", "recordings", "gtk3-demo-mcp"), path.join(work, "app", "cassettes", "open-demo"), {
        recursive: true,
      });
      const init = await sh("npx cua-contract contract init --from cassettes/open-demo/probe.json --out contracts/cua-driver.json");
      expect(init.exitCode, init.all).toBe(0);

      const gate = stepScript(readFileSync(path.join(repoRoot, "examples", "ci", "driver-bump.yml"), "utf8"), "Gate the candidate");
      const pinned = await sh(gate, { CANDIDATE: "", BASELINE: "contracts/expected-failures.json" });
      expect(pinned.all).toContain("@trycua/cua-driver 0.21.0, your project's copy");
      expect(pinned.exitCode, pinned.all).toBe(0);

      const bump = await sh("npm install --save-dev --no-audit --no-fund @trycua/cua-driver@0.28.2");
      expect(bump.exitCode, bump.all).toBe(0);
      const bumped = await sh(gate, { CANDIDATE: "", BASELINE: "contracts/expected-failures.json" });
      expect(bumped.all).toContain("@trycua/cua-driver 0.28.2, your project's copy");
      expect(bumped.exitCode, bumped.all).toBe(1);
      expect(bumped.all).toMatch(/idempotentHint/);
      expect(readFileSync(path.join(work, "app", "gate.xml"), "utf8")).toContain("<testsuite");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
