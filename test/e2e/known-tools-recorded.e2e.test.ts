// A correct harness's clean replay must come out green on every recording, whatever its driver
// version: `no-unknown-tools` judges calls against the tools the recording's own driver offers (its
// probe, else the tool lists it recorded, else the catalogue's list for its version), never against
// the reference version's list alone (docs/decisions/0280). The first test replays the real 0.28.2
// recording (the Python SDK's traffic, no probe) to the requests it was recorded with; the others
// replay a copy of it as a newer driver would have answered it: one that lists `type_secret` (a tool
// read from source after 0.28.2) and carried out a call of it. That copy is hand-built
// (`source: "synthetic"`): no released driver lists `type_secret`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";
import { reportModel } from "#src/report/report-model.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { toPassInvariants } from "#src/vitest/matchers.js";
import { useCassette } from "#src/vitest/use-cassette.js";

const REAL = path.join(repoRoot, "test/fixtures/cassettes/mcp-python-sdk-0.28.2");
const LINES = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");

type Event = Record<string, unknown> & { seq: number; t_ms: number; kind: string; dir?: "c2s" | "s2c"; line?: string };

function read(dir: string): { header: Record<string, unknown>; events: Event[] } {
  const [header, ...events] = readFileSync(path.join(dir, "cassette.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { header: header!, events: events as Event[] };
}

const c2s = (events: readonly Event[]) => events.filter((e) => e.kind === "mcp" && e.dir === "c2s").map((e) => e.line!);

/** Replays `dir` to a raw MCP client sending `lines`; the run's JSON summary. */
async function replayLines(dir: string, lines: readonly string[]) {
  const r = await runCliInProcess(["replay", dir, "--json", "--", "python3", LINES, JSON.stringify(lines)]);
  const summary = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { exitCode: number; unmatched: number; violations: { id: string; message: string }[] };
  return { exitCode: r.exitCode, stderr: r.stderr, summary };
}

const SECRET_ARGS = { handle: "«redacted:credential:0a1b2c3d»", field: "password", target: { pid: 29678, window_id: 6291463 } };
const TYPE_SECRET_ENTRY = {
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false, readOnlyHint: false },
  description: "Type the secret a credential handle stands for into a verified target.",
  inputSchema: { type: "object" },
  name: "type_secret",
};

/**
 * The real recording as a driver newer than 0.28.2 would have answered it: the header says that
 * version (hand-built), `listed` adds type_secret to its tools/list answer (else the answer is
 * dropped with its request), and the harness's last call is a type_secret the driver carried out.
 */
function newerDriverCopy(dir: string, options: { listed: boolean }): string[] {
  const { header, events } = read(REAL);
  const driver = header.driver as Record<string, unknown>;
  const { manifest_sha256: _m, ...rest } = driver;
  const copiedHeader = {
    ...header,
    driver: {
      ...rest,
      version: "0.29.0",
      source: "synthetic",
      version_output: "cua-driver 0.29.0\n",
      location: "test/fixtures/cassettes/mcp-python-sdk-0.28.2",
    },
    notes: ["Hand-built from the real 0.28.2 recording beside it: a newer driver that lists and carries out type_secret."],
  };
  const out: Event[] = [];
  for (const e of events) {
    if (e.kind === "cli" && (e.argv as string[])[0] === "manifest") continue; // its bytes are 0.28.2's
    if (e.kind === "cli" && (e.argv as string[])[0] === "--version") {
      out.push({ ...e, stdout: "cua-driver 0.29.0\n" });
      continue;
    }
    const message = e.line ? (JSON.parse(e.line) as { id?: number; method?: string; result?: { tools?: unknown[] } }) : undefined;
    if (message?.id === 2) {
      // the tools/list request and its answer
      if (!options.listed) continue;
      if (message.result?.tools) {
        message.result.tools.push(TYPE_SECRET_ENTRY);
        out.push({ ...e, line: JSON.stringify(message) });
        continue;
      }
    }
    if (e.kind === "mcp_close") {
      const meta = (JSON.parse(c2s(events)[2]!) as { params: { _meta: unknown } }).params._meta;
      const t = e.t_ms - 2;
      out.push({
        seq: 0,
        t_ms: t,
        origin: "harness",
        kind: "mcp",
        stream: 0,
        dir: "c2s",
        line: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "type_secret", arguments: SECRET_ARGS, _meta: meta } }),
      });
      const serverInfo = { "io.modelcontextprotocol/serverInfo": { name: "cua-driver", version: "0.29.0" } };
      const result = { _meta: serverInfo, content: [{ text: "Typed the secret into the target.", type: "text" }], isError: false, resultType: "complete" };
      out.push({ seq: 0, t_ms: t + 1, origin: "harness", kind: "mcp", stream: 0, dir: "s2c", line: JSON.stringify({ jsonrpc: "2.0", id: 7, result }) });
    }
    out.push(e);
  }
  const renumbered = out.map((e, seq) => ({ ...e, seq, ...(e.start_seq !== undefined ? { start_seq: seq } : {}) }));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "cassette.jsonl"), `${[copiedHeader, ...renumbered].map((l) => JSON.stringify(l)).join("\n")}\n`);
  return c2s(renumbered);
}

describe("a correct harness's clean replay of a recording is green, whatever the driver version", () => {
  it("the real 0.28.2 recording (no probe), replayed to the requests it was recorded with: nothing unmatched, no violation", async () => {
    const { header, events } = read(REAL);
    expect(header.driver).toMatchObject({ version: "0.28.2", source: "sdk" });
    const r = await replayLines(REAL, c2s(events));
    expect(r.summary, r.stderr).toMatchObject({ exitCode: 0, unmatched: 0, violations: [] });
  }, 60_000);

  it.each([
    ["a call of a tool the recorded tools/list offers (newer than the reference version) is no unknown tool", true],
    ["without a probe or a recorded tool list, the catalogue's list for the header's version is used", false],
  ])(
    "%s",
    async (_title, listed) => {
      await using tmp = await tmpDir();
      const dir = path.join(tmp.path, "newer");
      const r = await replayLines(dir, newerDriverCopy(dir, { listed }));
      expect(r.summary, r.stderr).toMatchObject({ exitCode: 0, unmatched: 0, violations: [] });
    },
    60_000,
  );

  it("the report of that replay's log, with its cassette, judges it as the replay did", async () => {
    await using tmp = await tmpDir();
    const dir = path.join(tmp.path, "newer");
    const log = path.join(tmp.path, "log.jsonl");
    const r = await runCliInProcess(["replay", dir, "--log", log, "--", "python3", LINES, JSON.stringify(newerDriverCopy(dir, { listed: true }))]);
    expect(r.exitCode, r.stderr).toBe(0);
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ReplayLogEntry);
    const m = await reportModel({ input: { kind: "replay-log", file: log, entries }, cassetteDir: dir });
    expect(m.sections[0]).toMatchObject({ passed: true, problems: [] });
  }, 60_000);

  it("`toPassInvariants` on the useCassette handle of that replay judges it as the replay did", async () => {
    await using tmp = await tmpDir();
    const dir = path.join(tmp.path, "newer");
    const lines = newerDriverCopy(dir, { listed: true });
    await using handle = await useCassette(dir, { mode: "replay" });
    const run = await handle.run(["python3", LINES, JSON.stringify(lines)]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(handle.log().filter((e) => e.type === "request" && e.tool === "type_secret")).toHaveLength(1);
    const verdict = toPassInvariants(handle);
    expect(verdict.pass, verdict.message()).toBe(true);
  }, 60_000);

  it("a tool the catalogue knows for that version, called off the recorded path, is unmatched rather than refused as unlisted", async () => {
    await using tmp = await tmpDir();
    const dir = path.join(tmp.path, "newer-unlisted");
    const lines = newerDriverCopy(dir, { listed: false });
    const meta = (JSON.parse(lines.at(-1)!) as { params: { _meta: unknown } }).params._meta;
    const find = JSON.stringify({
      jsonrpc: "2.0",
      id: 8,
      method: "tools/call",
      params: { name: "find_credentials", arguments: { target: { pid: 29678 } }, _meta: meta },
    });
    const log = path.join(tmp.path, "log.jsonl");
    const r = await runCliInProcess(["replay", dir, "--json", "--log", log, "--", "python3", LINES, JSON.stringify([...lines, find])]);
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; tool?: string; outcome?: string; synthesized?: string });
    const entry = entries.find((e) => e.type === "request" && e.tool === "find_credentials");
    // the recording cannot say what a 0.29.0 driver answers: no permission_denied made up for it
    expect(entry, r.stderr).toMatchObject({ outcome: "unmatched" });
    expect(entry?.synthesized).toBeUndefined();
  }, 60_000);

  it("a tool the recorded tools/list does not offer is still reported, naming that list as the source", async () => {
    await using tmp = await tmpDir();
    const dir = path.join(tmp.path, "newer");
    const lines = newerDriverCopy(dir, { listed: true });
    // the same recording without type_secret in its tools/list: the call is one the driver did not list
    const file = path.join(dir, "cassette.jsonl");
    writeFileSync(file, readFileSync(file, "utf8").replace(`,${JSON.stringify(JSON.stringify(TYPE_SECRET_ENTRY)).slice(1, -1)}`, ""));
    const r = await replayLines(dir, lines);
    expect(r.summary.unmatched).toBe(0);
    expect(r.summary.violations).toEqual([
      {
        id: "no-unknown-tools",
        message: expect.stringMatching(
          /^#\d+ type_secret .* calls type_secret, which the cassette's recorded tools\/list answer \(to event 4\) does not list$/,
        ),
        events: [expect.any(Number)],
      },
    ]);
  }, 60_000);
});
