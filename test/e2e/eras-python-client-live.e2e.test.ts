// The Python MCP SDK 2.x Client itself, in its default mode (mode="auto"), against the stand-in: the
// published runtime of 0.21.0 and 0.28.2, the committed recording replayed, and a fresh recording on
// a throwaway desktop replayed (`npm run test:desktop`, test/tiers.ts). Runs when a python3 imports the
// SDK (CUA_CONTRACT_MCP_PYTHON names one; .ci/run makes one when the machine's package index has it);
// else it skips, saying how to get one. eras-python-client.e2e.test.ts replays the recording without Python.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cassette, FIXTURE, readLog } from "../helpers/python-client-recording.js";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { sdkUnavailable } from "../helpers/sdk-available.js";
import { skipWithout } from "../helpers/system-packages.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const CLIENT = path.join(repoRoot, "test/e2e/replay/mcp-python-client.py");
const TEE = path.join(repoRoot, "test/e2e/replay/tee-stdio.mjs");

/** The first python3 that imports the mcp 2.x SDK with an era-negotiating `Client` (default mode "auto"). */
async function findSdkPython(): Promise<{ python: string; version: string } | undefined> {
  const probe = [
    "import dataclasses, importlib.metadata, mcp",
    "mode = {f.name: f for f in dataclasses.fields(mcp.Client)}['mode']",
    "assert mode.default == 'auto', mode.default",
    "print(importlib.metadata.version('mcp'))",
  ].join("\n");
  for (const python of [process.env.CUA_CONTRACT_MCP_PYTHON, "python3"].filter((p): p is string => !!p)) {
    const r = await execa(python, ["-c", probe], { reject: false });
    if (r.exitCode === 0) return { python, version: r.stdout.trim() };
  }
  return undefined;
}

const sdkPython = await findSdkPython();
if (!sdkPython) {
  console.warn(
    "\n!!! SKIPPING the Python MCP SDK's own runs: no python3 imports `mcp` 2.x with Client(mode='auto'). " +
      "Install it in a venv (python3 -m venv --system-site-packages /tmp/mcp-py && /tmp/mcp-py/bin/pip install 'mcp>=2.3') " +
      "and set CUA_CONTRACT_MCP_PYTHON=/tmp/mcp-py/bin/python (docs/discoveries/python-mcp-sdk-client.md).\n",
  );
}

type Outcome = {
  version: string;
  server: { name: string; version: string } | null;
  tools: number;
  calls: Record<string, { isError: boolean }>;
  resources?: string[];
};

/** Runs the Python client against a command; resolves to its JSON line, or its exit code and stderr. */
async function python(mode: string, tools: string, command: string[]) {
  const r = await execa(sdkPython!.python, [CLIENT, mode, tools, "--", ...command], { reject: false, cwd: repoRoot, timeout: 120_000 });
  return { exitCode: r.exitCode, stderr: r.stderr, out: r.exitCode === 0 ? (JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Outcome) : undefined };
}

const serveDriver = (version: string) => [process.execPath, cliPath, "serve", "--driver", `sdk:${version}`, "--transport", "mcp"];

/** The client in its default mode against `serve --driver sdk:VERSION`: it connects, lists 60 tools and calls get_config. */
async function defaultModeAgainst(version: string, protocolVersion: string): Promise<Outcome> {
  const auto = await python("default", "get_config", serveDriver(version));
  expect(auto.exitCode, auto.stderr).toBe(0);
  expect(auto.out).toMatchObject({ version: protocolVersion, server: { name: "cua-driver", version }, tools: 60, calls: { get_config: { isError: false } } });
  return auto.out!;
}

describe.skipIf(!sdkPython)(`the Python MCP SDK ${sdkPython?.version ?? ""} Client in its default mode`, () => {
  it("against serve --driver sdk:0.21.0: ends in the legacy era; pinned to 2026-07-28 it fails on 0.21.0's legacy answer", async (ctx) => {
    const why = await sdkUnavailable("0.21.0");
    if (why) return ctx.skip(why);
    expect(await defaultModeAgainst("0.21.0", "2025-06-18")).not.toHaveProperty("resources"); // 0.21.0 offers no resources
    // a pinned Python client sends no probe: 0.21.0 serves tools/list without initialize and without
    // the modern envelope, and the client refuses that result
    const pinned = await python("2026-07-28", "", serveDriver("0.21.0"));
    expect(pinned.exitCode).not.toBe(0);
    expect(pinned.stderr).toContain("3 validation errors for ListToolsResult");
    for (const field of ["cacheScope", "resultType", "ttlMs"]) expect(pinned.stderr).toMatch(new RegExp(`\\n${field}\\n  Field required`));
  }, 120_000);

  it("against serve --driver sdk:0.28.2: ends in the modern era and reads the skill pack's resources", async (ctx) => {
    const why = await sdkUnavailable("0.28.2");
    if (why) return ctx.skip(why);
    expect((await defaultModeAgainst("0.28.2", "2026-07-28")).resources).toContain("skill://cua-driver/SKILL.md");
  }, 120_000);

  it("replaying the committed recording (serve CASSETTE --transport mcp): byte for byte, nothing unmatched", async () => {
    await using dir = await tmpDir();
    const log = path.join(dir.path, "log.jsonl");
    const r = await python("default", "get_config,list_windows", [
      process.execPath,
      TEE,
      dir.path,
      "--",
      process.execPath,
      cliPath,
      "serve",
      FIXTURE,
      "--transport",
      "mcp",
      "--log",
      log,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.out).toMatchObject({ version: "2026-07-28", server: { version: "0.28.2" } });
    const rec = cassette(FIXTURE);
    expect(readFileSync(path.join(dir.path, "c2s"), "utf8")).toBe(rec.c2s.map((l) => `${l}\n`).join(""));
    expect(readFileSync(path.join(dir.path, "s2c"), "utf8")).toBe(rec.s2c.map((l) => `${l}\n`).join(""));
    expect(readLog(log).at(-1)).toMatchObject({ type: "summary", unmatched: 0, synthesized: 3 });
  }, 120_000);

  it("recorded with record --driver sdk:0.28.2 --desktop, then replayed by serve: byte for byte, nothing unmatched", async (ctx) => {
    if (await skipWithout("desktop", "the Python MCP SDK recording on a desktop")) return ctx.skip();
    const why = await sdkUnavailable("0.28.2");
    if (why) return ctx.skip(why);
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const recorded = await execa(
      process.execPath,
      [
        cliPath,
        "record",
        "--driver",
        "sdk:0.28.2",
        "--desktop",
        "--no-probe",
        "--out",
        out,
        "--",
        sdkPython!.python,
        CLIENT,
        "default",
        "get_config,list_windows",
        "--",
        "cua-driver",
        "mcp",
      ],
      { reject: false, cwd: repoRoot, timeout: 180_000 },
    );
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const rec = cassette(out);
    expect(JSON.parse(rec.s2c[0]!).result.supportedVersions).toEqual(["2026-07-28"]);
    // the stand-in's answers are marked, the runtime's tool results only as wrapped in the envelope it built
    expect(rec.marks).toEqual([
      ["discover", null],
      [null, ["host_tools", "modern_envelope"]],
      [null, ["modern_envelope"]],
      [null, ["modern_envelope"]],
      ["skill_pack", null],
      ["skill_pack", null],
    ]);
    const tee = path.join(dir.path, "tee");
    mkdirSync(tee);
    const log = path.join(dir.path, "log.jsonl");
    const replayed = await python("default", "get_config,list_windows", [
      process.execPath,
      TEE,
      tee,
      "--",
      process.execPath,
      cliPath,
      "serve",
      out,
      "--transport",
      "mcp",
      "--log",
      log,
    ]);
    expect(replayed.exitCode, replayed.stderr).toBe(0);
    expect(replayed.out).toEqual(JSON.parse(recorded.stdout.trim().split("\n").at(-1)!));
    expect(readFileSync(path.join(tee, "s2c"), "utf8")).toBe(rec.s2c.map((l) => `${l}\n`).join(""));
    expect(readLog(log).at(-1)).toMatchObject({ type: "summary", unmatched: 0, synthesized: 3 });
  }, 240_000);
});
