import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { readExchanges } from "./exchanges/index.js";
import { pruneCassette } from "./prune.js";
import { readCassetteSync } from "./reader.js";
import { readReplayLogs } from "./read-replay-logs.js";

const CASSETTE = "recordings/gtk3-demo-mcp";

function logUsing(file: string, seqs: readonly number[]): string {
  const requests = seqs.map((seq, n) =>
    JSON.stringify({
      type: "request",
      n,
      t_ms: n,
      transport: "mcp",
      method: "tools/call",
      tool: "x",
      kind: "read",
      epoch_before: 0,
      epoch_after: 0,
      outcome: "replayed",
      matched_seq: seq,
    }),
  );
  writeFileSync(file, `${[...requests, JSON.stringify({ type: "summary", t_ms: 9, served: seqs.length, unmatched: 0, faults: 0, unused: [] })].join("\n")}\n`);
  return file;
}

describe("cassette prune: one pass over the cassette", () => {
  it("keeps, byte for byte, the lines of the calls a log used (an MCP answer with its request, read later) and every line that is no call", async () => {
    await using tmp = await tmpDir();
    // the recording, with one call's answer moved after the next call's request (seqs renumbered in file order)
    const dir = path.join(tmp.path, "in");
    cpSync(CASSETTE, dir, { recursive: true });
    const recorded = readCassetteSync(dir, { frames: "skip" });
    const pairs = readExchanges(recorded.events).filter((x) => x.transport === "mcp" && x.request.message.method === "tools/call" && x.answer);
    const text = readFileSync(path.join(dir, "cassette.jsonl"), "utf8").replace(/\n$/, "").split("\n");
    const answerLine = recorded.lines[recorded.events.findIndex((e) => e.seq === pairs[1]!.seqs[1])]! - 1;
    const nextRequestLine = recorded.lines[recorded.events.findIndex((e) => e.seq === pairs[2]!.seqs[0])]! - 1;
    const [answer] = text.splice(answerLine, 1);
    text.splice(nextRequestLine, 0, answer!);
    const renumbered = text.map((l, i) => (i === 0 ? l : JSON.stringify({ ...(JSON.parse(l) as object), seq: i - 1 })));
    writeFileSync(path.join(dir, "cassette.jsonl"), `${renumbered.join("\n")}\n`);

    const { events, lines } = readCassetteSync(dir, { frames: "skip" });
    // the tool calls as a whole read pairs them (each answer with its request)
    const calls = readExchanges(events).filter((x) => x.transport === "mcp" && x.request.message.method === "tools/call" && x.answer);
    expect(calls.length).toBeGreaterThan(3);
    // an answer that comes after another call's request
    expect(calls[1]!.seqs[1]).toBeGreaterThan(calls[2]!.seqs[0]!);
    // calls 0, 2, … used; 1, 3, … not (so the moved answer goes, the request after it stays)
    const used = calls.filter((_, i) => i % 2 === 0);
    const dropped = new Set(calls.filter((_, i) => i % 2 === 1).flatMap((x) => x.seqs));
    const out = path.join(tmp.path, "pruned");
    const r = pruneCassette({
      dir,
      logs: readReplayLogs([
        logUsing(
          path.join(tmp.path, "log.jsonl"),
          used.map((x) => x.seqs[0]!),
        ),
      ]),
      out,
    });

    const input = readFileSync(path.join(dir, "cassette.jsonl"), "latin1").replace(/\n$/, "").split("\n");
    const expected = [input[0], ...events.flatMap((e, i) => (dropped.has(e.seq) ? [] : [input[lines[i]! - 1]]))];
    expect(readFileSync(path.join(out, "cassette.jsonl"), "latin1")).toBe(`${expected.join("\n")}\n`);
    expect(r.dropped).toEqual([...dropped].sort((a, b) => a - b));
    expect(r.events).toEqual({ before: events.length, after: events.length - dropped.size });
  });

  it("a prune --out that fails leaves no folder it made behind (nor a temp file)", async () => {
    await using tmp = await tmpDir();
    const dir = path.join(tmp.path, "in");
    cpSync(CASSETTE, dir, { recursive: true });
    const file = path.join(dir, "cassette.jsonl");
    const input = readFileSync(file, "utf8").split("\n");
    input[5] = input[4]!; // seq used twice, found halfway through the pass
    writeFileSync(file, input.join("\n"));
    const log = logUsing(path.join(tmp.path, "log.jsonl"), [1]);
    const out = path.join(tmp.path, "made", "pruned");
    expect(() => pruneCassette({ dir, logs: readReplayLogs([log]), out })).toThrow(/is used twice/);
    expect(existsSync(path.join(tmp.path, "made"))).toBe(false);
    // a folder that was there stays, empty as it was
    const there = path.join(tmp.path, "there");
    cpSync(path.join(tmp.path, "in", "frames"), path.join(there, "frames"), { recursive: true });
    expect(() => pruneCassette({ dir, logs: readReplayLogs([log]), out: there })).toThrow(/is used twice/);
    expect(readdirSync(there)).toEqual(["frames"]);
  });
});
