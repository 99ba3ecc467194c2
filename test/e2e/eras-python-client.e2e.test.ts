// The Python MCP SDK 2.x (`pip install mcp`) picks the era: its `Client` in its default mode
// (mode="auto") probes server/discover on the session's own stream and falls back to initialize.
// The recording in test/fixtures/cassettes/mcp-python-sdk-0.28.2 is what that client sent to, and got
// from, the real runtime 0.28.2 under Xvfb (its README says how it was made). The first group replays
// it without Python; the second runs the client itself when a python3 with the SDK is found.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { sdkUnavailable } from "../helpers/sdk-available.js";
import { skipWithout } from "../helpers/system-packages.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const FIXTURE = path.join(repoRoot, "test/fixtures/cassettes/mcp-python-sdk-0.28.2");
const CLIENT = path.join(repoRoot, "test/e2e/replay/mcp-python-client.py");
const TEE = path.join(repoRoot, "test/e2e/replay/tee-stdio.mjs");

type Event = { kind: string; stream?: number; dir?: "c2s" | "s2c"; line?: string; synthesized?: { kind: string }; wrapped?: { parts: string[] } };

function cassette(dir: string) {
  const [header, ...events] = readFileSync(path.join(dir, "cassette.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const mcp = (events as Event[]).filter((e) => e.kind === "mcp");
  return {
    header: header as { driver: { version: string; source: string; location: string } },
    c2s: mcp.filter((e) => e.dir === "c2s").map((e) => e.line!),
    s2c: mcp.filter((e) => e.dir === "s2c").map((e) => e.line!),
    /** Each answer's marks: the kind the recorder's stand-in built it as, the parts it built around the runtime's bytes. */
    marks: mcp.filter((e) => e.dir === "s2c").map((e) => [e.synthesized?.kind ?? null, e.wrapped?.parts ?? null]),
    streams: new Set(mcp.map((e) => e.stream)).size,
  };
}

const readLog = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Sends each line to `serve DIR --transport mcp` and, after a request, reads its one answer line. */
async function serveLines(dir: string, lines: string[], log: string): Promise<string[]> {
  const child = spawn(process.execPath, [cliPath, "serve", dir, "--transport", "mcp", "--log", log], { stdio: ["pipe", "pipe", "pipe"] });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const got: string[] = [];
  try {
    for (const line of lines) {
      child.stdin.write(`${line}\n`);
      if ((JSON.parse(line) as { id?: unknown }).id === undefined) continue;
      const next = await answers.next();
      if (next.done) throw new Error(`serve closed its stdout after ${got.length} answer(s)`);
      got.push(next.value);
    }
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("close", resolve));
  }
  return got;
}

describe("the Python SDK's recording of cua-driver 0.28.2, replayed by `serve` (no Python needed)", () => {
  it("answers the requests it was recorded with byte for byte, all in the modern era, with nothing unmatched", async () => {
    const rec = cassette(FIXTURE);
    expect(rec.header.driver).toMatchObject({ version: "0.28.2", source: "sdk", location: "sdk:@trycua/cua-driver@0.28.2" });
    expect(rec.streams).toBe(1); // the Python client probes on its own stream (no sibling process)
    // the recording is the Python SDK's own traffic: its client info, its default era probe first
    expect(JSON.parse(rec.c2s[0]!)).toMatchObject({
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "mcp" } } },
    });
    await using dir = await tmpDir();
    const log = path.join(dir.path, "log.jsonl");
    const got = await serveLines(FIXTURE, rec.c2s, log);
    expect(got).toEqual(rec.s2c);
    const entries = readLog(log);
    const requests = entries.filter((e) => e.type === "request");
    // the answers the recorder's stand-in built (marked in the cassette) are logged as synthesized, with their basis
    expect(requests.map((e) => [e.method, e.tool ?? null, e.era, e.outcome, e.synthesized ?? null])).toEqual([
      ["server/discover", null, "modern", "replayed", "discover"],
      ["tools/list", null, "modern", "replayed", null],
      ["call", "get_config", "modern", "replayed", null],
      ["call", "list_windows", "modern", "replayed", null],
      ["resources/list", null, "modern", "replayed", "skill_pack"],
      ["resources/read", null, "modern", "replayed", "skill_pack"],
    ]);
    expect((requests[5]!.basis as { detail: string }).detail).toContain("docs/reference/cua-driver-skills-named-commits, not a 0.28.x release's pack");
    expect(entries.at(-1)).toMatchObject({ type: "summary", served: 6, unmatched: 0, synthesized: 3, unused: [] });
  }, 60_000);
});

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
