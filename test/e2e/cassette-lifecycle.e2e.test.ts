import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CASSETTE, HARNESS, TOKEN } from "../helpers/replay-cli-harness.js";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const MCP_CASSETTE = path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk");
const MCP_CLIENT = path.join(repoRoot, "test/e2e/replay/mcp-lines.py");
const INIT =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}';
const call = (id: number, name: string, args: object) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** The log's requests without their timings: what two replays of one harness must share. */
function requests(file: string) {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.type === "request")
    .map(({ t_ms: _t, duration_ms: _d, ...rest }) => rest);
}

const lines = (file: string) => readFileSync(path.join(file, "cassette.jsonl"), "utf8").trim().split("\n");
/** Frames and frame signatures in a cassette's frames/. */
const signedFrames = (dir: string) => {
  const names = existsSync(path.join(dir, "frames")) ? readdirSync(path.join(dir, "frames")) : [];
  return { frames: names.filter((n) => /\.(png|jpg)$/.test(n)).length, signatures: names.filter((n) => n.endsWith(".sig.json")).length };
};
const frameCount = (dir: string) => (existsSync(path.join(dir, "frames")) ? readdirSync(path.join(dir, "frames")).length : 0);

describe("cassette prune", () => {
  it("drops the CLI calls no replay used and their frames; the harness replays identically on the pruned copy", async () => {
    await using dir = await tmpDir();
    const steps = JSON.stringify([
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "list_windows"] },
      { argv: ["call", "click", TOKEN] },
      { argv: ["call", "get_screen_size"] },
    ]);
    const harness = ["--", "python3", HARNESS, steps];
    const before = path.join(dir.path, "before.jsonl");
    const first = await runCliInProcess(["replay", CASSETTE, "--log", before, "--fail-on-unused", ...harness]);
    expect(first.exitCode, "the full cassette has unused mutations").toBe(1);

    const pruned = path.join(dir.path, "pruned");
    const r = await runCliInProcess(["cassette", "prune", CASSETTE, "--log", before, "--out", pruned, "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { dropped: number[]; frames: { before: number; after: number } };
    expect(result.dropped).toEqual([4, 5, 6, 7]); // press_key, both get_desktop_state, get_config
    expect(result.frames).toEqual({ before: 1, after: 0 });
    expect(frameCount(pruned)).toBe(0);
    // kept lines are the original bytes, the --version identity event included
    const original = lines(CASSETTE);
    expect(lines(pruned)).toEqual([original[0], original[1], original[2], original[3], original[4]]);

    const after = path.join(dir.path, "after.jsonl");
    const second = await runCliInProcess(["replay", pruned, "--log", after, "--fail-on-unused", "--json", ...harness]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(requests(after)).toEqual(requests(before));
    expect(JSON.parse(second.stdout.trim().split("\n").at(-1)!).unused).toBe(0);
  });

  it("drops an MCP tools/call with its response and keeps the protocol exchanges; replays identically", async () => {
    await using dir = await tmpDir();
    const harness = [
      "--",
      "python3",
      MCP_CLIENT,
      JSON.stringify([
        INIT,
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        call(3, "list_windows", {}),
        call(4, "get_window_state", { pid: 24132, window_id: 4194311, max_elements: 40 }),
      ]),
    ];
    const before = path.join(dir.path, "before.jsonl");
    const first = await runCliInProcess(["replay", MCP_CASSETTE, "--log", before, "--invariants", "none", ...harness]);
    expect(first.exitCode, first.stderr).toBe(0);
    const r = await runCliInProcess(["cassette", "prune", MCP_CASSETTE, "--log", before, "--out", path.join(dir.path, "p"), "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const { dropped } = JSON.parse(r.stdout) as { dropped: number[] };
    // click, get_window_state, click, press_key, get_screen_size, get_desktop_state, zoom: requests and responses
    expect(dropped).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]);
    const kept = lines(path.join(dir.path, "p"))
      .slice(1)
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(kept).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 24]);
    const after = path.join(dir.path, "after.jsonl");
    const second = await runCliInProcess(["replay", path.join(dir.path, "p"), "--log", after, "--invariants", "none", ...harness]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout.split("\n")[0]).toBe(first.stdout.split("\n")[0]); // the harness saw the same bytes
    expect(requests(after)).toEqual(requests(before));
  });

  it("prunes in place (after a --dry-run that changes nothing)", async () => {
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "c");
    cpSync(CASSETTE, copy, { recursive: true });
    expect((await runCliInProcess(["cassette", "sign", copy])).exitCode).toBe(0);
    expect(frameCount(copy)).toBe(2); // the frame and its signature
    const log = path.join(dir.path, "log.jsonl");
    expect((await runCliInProcess(["replay", copy, "--log", log, "--", "sh", "-c", "cua-driver call get_screen_size </dev/null >/dev/null"])).exitCode).toBe(0);
    const dry = await runCliInProcess(["cassette", "prune", copy, "--log", log, "--dry-run"]);
    expect(dry.stdout).toBe("would keep 2 of 8 events and 0 of 1 frames; dropped seq 2, 3, 4, 5, 6, 7");
    expect(lines(copy)).toEqual(lines(CASSETTE));
    const wet = await runCliInProcess(["cassette", "prune", copy, "--log", log]);
    expect(wet.exitCode, wet.stderr).toBe(0);
    expect(lines(copy)).toEqual(lines(CASSETTE).slice(0, 3));
    expect(frameCount(copy), "the dropped frame's signature goes with it").toBe(0);
  });

  it("refuses a log from another cassette, and one that is not JSONL", async () => {
    await using dir = await tmpDir();
    const log = path.join(dir.path, "log.jsonl");
    writeFileSync(
      log,
      `${JSON.stringify({ type: "request", n: 0, t_ms: 0, transport: "cli", method: "call", tool: "click", kind: "mutation", epoch_before: 0, epoch_after: 1, outcome: "replayed", matched_seq: 99 })}\n`,
    );
    const r = await runCliInProcess(["cassette", "prune", CASSETTE, "--log", log, "--dry-run"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `${log}: request #0 matched event seq 99, which ${path.join(CASSETTE, "cassette.jsonl")} does not hold. Pass logs written by replays of this cassette`,
    );
    writeFileSync(log, "{not json\n");
    const bad = await runCliInProcess(["cassette", "prune", CASSETTE, "--log", log]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`${log}:1: not a JSON line`);
  });
});

describe("cassette merge", () => {
  it("appends B after A: a harness that runs A's calls then B's is served all of them", async () => {
    await using dir = await tmpDir();
    const a = path.join(dir.path, "a");
    const b = path.join(dir.path, "b");
    const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
    const record = (out: string, script: string) =>
      runCliInProcess(["record", "--out", out, "--driver", fake, "--driver-source", "synthetic", "--", "sh", "-c", script]);
    expect((await record(a, 'cua-driver call get_screen_size "{}" >/dev/null')).exitCode).toBe(0);
    expect((await record(b, 'cua-driver call list_windows "{}" >/dev/null && cua-driver call get_desktop_state "{}" >/dev/null')).exitCode).toBe(0);
    expect(signedFrames(b), "record signs the frames it wrote").toEqual({ frames: 1, signatures: 1 });
    const merged = path.join(dir.path, "ab");
    const m = await runCliInProcess(["cassette", "merge", a, b, "--out", merged]);
    expect(m.exitCode, m.stderr).toBe(0);
    const events = lines(merged)
      .slice(1)
      .map((l) => JSON.parse(l) as { seq: number; t_ms: number; duration_ms: number });
    const countA = lines(a).length - 1;
    expect(events.map((e) => e.seq)).toEqual([...events.keys()]);
    const endA = Math.max(...events.slice(0, countA).map((e) => e.t_ms + e.duration_ms));
    expect(Math.min(...events.slice(countA).map((e) => e.t_ms))).toBeGreaterThan(endA); // B starts after A ended
    expect(m.stderr).toContain("the two probe.json files differ; the merged cassette keeps");
    expect(signedFrames(merged), "merge carries each frame's signature").toEqual({ frames: 1, signatures: 1 });
    const both = await runCliInProcess([
      "replay",
      merged,
      "--json",
      "--",
      "sh",
      "-c",
      'cua-driver call get_screen_size "{}" >/dev/null && cua-driver call list_windows "{}" >/dev/null && cua-driver call get_desktop_state "{}" >/dev/null',
    ]);
    expect(both.exitCode, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout.trim())).toMatchObject({ unmatched: 0, served: 3 });
    const onlyA = await runCliInProcess(["replay", a, "--json", "--", "sh", "-c", 'cua-driver call list_windows "{}" >/dev/null']);
    expect(JSON.parse(onlyA.stdout.trim()).unmatched).toBe(1);
  });

  it("refuses cassettes from different driver versions, naming both", async () => {
    await using dir = await tmpDir();
    const newer = path.join(dir.path, "newer");
    mkdirSync(newer);
    const [header, ...rest] = lines(CASSETTE);
    writeFileSync(path.join(newer, "cassette.jsonl"), `${[header!.replace('"version":"0.21.0"', '"version":"0.28.2"'), ...rest.slice(0, 2)].join("\n")}\n`);
    const m = await runCliInProcess(["cassette", "merge", CASSETTE, newer, "--out", path.join(dir.path, "out")]);
    expect(m.exitCode).toBe(2);
    expect(m.stderr).toContain(
      `cannot merge ${path.join(newer, "cassette.jsonl")} into ${path.join(CASSETTE, "cassette.jsonl")}: driver 0.28.2 ≠ 0.21.0. Merge cassettes recorded from the same driver version`,
    );
    expect(existsSync(path.join(dir.path, "out"))).toBe(false);
  });
});

describe("cassette sign", () => {
  it("stores each frame's signature once, says what it did, and exits 1 naming a frame it could not sign", async () => {
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "c");
    cpSync(MCP_CASSETTE, copy, { recursive: true });
    const before = signedFrames(copy);
    expect(before.signatures).toBe(0);
    const first = await runCliInProcess(["cassette", "sign", copy]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe(`signed ${before.frames} of ${before.frames} frames in ${copy} (0 already signed)`);
    expect(signedFrames(copy)).toEqual({ frames: before.frames, signatures: before.frames });
    const again = await runCliInProcess(["cassette", "sign", copy, "--json"]);
    expect(JSON.parse(again.stdout)).toEqual({ cassettes: [{ dir: copy, frames: before.frames, signed: 0, kept: before.frames, unsigned: [] }] });

    const frame = readdirSync(path.join(copy, "frames")).find((f) => f.endsWith(".png"))!;
    writeFileSync(path.join(copy, "frames", frame), "not the frame");
    const bad = await runCliInProcess(["cassette", "sign", copy, "--force"]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(`cua-contract cassette sign: warning: ${copy}: frames/${frame} left unsigned: `);
    expect(bad.stderr).toContain(`frame frames/${frame} does not match its hash`);
    expect(bad.stdout).toBe(`signed ${before.frames - 1} of ${before.frames} frames in ${copy} (0 already signed, 1 left unsigned)`);

    const none = await runCliInProcess(["cassette", "sign", dir.path]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain(`${path.join(dir.path, "cassette.jsonl")}: cassette.jsonl is missing`);
  });

  it("prune --out keeps the signatures of the frames it keeps", async () => {
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "c");
    cpSync(MCP_CASSETTE, copy, { recursive: true });
    expect((await runCliInProcess(["cassette", "sign", copy])).exitCode).toBe(0);
    const log = path.join(dir.path, "log.jsonl");
    const harness = ["--", "python3", MCP_CLIENT, JSON.stringify([INIT, call(2, "get_window_state", { pid: 24132, window_id: 4194311, max_elements: 40 })])];
    expect((await runCliInProcess(["replay", copy, "--log", log, "--invariants", "none", ...harness])).exitCode).toBe(0);
    const out = path.join(dir.path, "p");
    const r = await runCliInProcess(["cassette", "prune", copy, "--log", log, "--out", out, "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const { frames } = JSON.parse(r.stdout) as { frames: { before: number; after: number } };
    expect(frames.after).toBeGreaterThan(0);
    expect(frames.after).toBeLessThan(frames.before);
    expect(signedFrames(out)).toEqual({ frames: frames.after, signatures: frames.after });
  });
});

describe("cassette stale and the replay-start warning", () => {
  it("judges age and driver range, exit 1 when any is stale", async () => {
    const old = await runCliInProcess(["cassette", "stale", CASSETTE, "--max-age", "1d", "--json"]);
    expect(old.exitCode).toBe(1);
    const doc = JSON.parse(old.stdout) as { stale: number; cassettes: { reasons: string[] }[] };
    expect(doc.stale).toBe(1);
    expect(doc.cassettes[0]!.reasons[0]).toMatch(/^recorded \d+ days? ago \(2026-11-29T00:00:00.000Z\), older than 1 day$/);
    expect((await runCliInProcess(["cassette", "stale", CASSETTE, "--max-age", "100000d"])).exitCode).toBe(0);
    const range = await runCliInProcess(["cassette", "stale", CASSETTE, MCP_CASSETTE, "--driver-versions", "0.28.x"]);
    expect(range.exitCode).toBe(1);
    expect(range.stdout).toContain("recorded with cua-driver 0.21.0, outside 0.28.x");
    expect(range.stdout).toContain("2 of 2 cassettes stale");
    const contract = await runCliInProcess(["cassette", "stale", CASSETTE, "--contract", path.join(repoRoot, "contracts/drivers/cua-driver-0.21.json")]);
    expect(contract.exitCode, contract.stdout).toBe(0);
    const bad = await runCliInProcess(["cassette", "stale", CASSETTE, "--max-age", "soon"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--max-age must be a duration like 30d, 12h or 2w, got "soon"');
  });

  it("replay warns at start and still replays", async () => {
    const r = await runCliInProcess([
      "replay",
      CASSETTE,
      "--max-age",
      "1d",
      "--json",
      "--",
      "sh",
      "-c",
      "cua-driver call get_screen_size </dev/null >/dev/null",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`cua-contract replay: warning: ${CASSETTE.replace(/[/.]/g, "\\$&")} is stale: recorded \\d+ days? ago`));
    const fresh = await runCliInProcess([
      "replay",
      CASSETTE,
      "--max-age",
      "100000d",
      "--json",
      "--",
      "sh",
      "-c",
      "cua-driver call get_screen_size </dev/null >/dev/null",
    ]);
    expect(fresh.stderr).not.toContain("stale");
  });
});
