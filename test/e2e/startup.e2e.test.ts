import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { commands } from "#src/cli/commands/index.js";
import { cliPath, repoRoot } from "../helpers/run-cli.js";

const REGISTER = new URL("../fixtures/startup/register.mjs", import.meta.url).href;

/** The npm packages a CLI run loads, and its output. */
async function packagesLoaded(args: string[]): Promise<{ packages: string[]; stdout: string; exitCode: number | undefined }> {
  const r = await execa(process.execPath, ["--import", REGISTER, cliPath, ...args], { reject: false, cwd: repoRoot, input: "" });
  const packages = [
    ...new Set(
      String(r.stderr)
        .split("\n")
        .flatMap((l) => (l.startsWith("package ") ? [l.slice(8)] : [])),
    ),
  ].sort();
  return { packages, stdout: String(r.stdout), exitCode: r.exitCode };
}

const HEAVY = ["msw", "@modelcontextprotocol/sdk", "fast-check", "sharp", "execa", "pixelmatch"];

describe("start-up", () => {
  it("check with the in-process harness and serve of a cassette load none of the heavy packages", async () => {
    const check = await packagesLoaded(["check", "contracts/scenarios/click-confirmed.json"]);
    expect(check.exitCode).toBe(0);
    expect(check.packages.filter((p) => HEAVY.includes(p))).toEqual([]);
    const serve = await packagesLoaded(["serve", "recordings/gtk3-demo-mcp", "--transport", "mcp"]);
    expect(serve.exitCode).toBe(0);
    expect(serve.packages.filter((p) => HEAVY.includes(p))).toEqual([]);
  });

  it("--help loads no package and lists every command with its description", async () => {
    const r = await packagesLoaded(["--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.packages).toEqual([]);
    const flat = r.stdout.replace(/\s+/g, " ");
    for (const c of commands) expect(flat).toContain(`cua-contract ${c.command} ${c.describe}`);
  });

  it("inspect of a real recording loads no package (no yargs, no zod)", async () => {
    const r = await packagesLoaded(["inspect", "recordings/gtk3-demo-cli"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^events {5}\d+/m);
    expect(r.packages).toEqual([]);
  });

  it.each([["replay"], ["check"], ["serve"], ["gate"], ["diff"]])("%s --help loads none of the heavy packages", async (name) => {
    const r = await packagesLoaded([name, "--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`cua-contract ${name}`);
    // execa runs the candidate driver: gate may need it on any run
    const allowed = name === "gate" ? ["execa"] : [];
    expect(r.packages.filter((p) => HEAVY.includes(p) && !allowed.includes(p))).toEqual([]);
  });
});
