import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../helpers/run-cli.js";

/** A CLI cassette with 8 events (seq 0–7) and one frame, used by the writer tests. */
export const SOURCE = path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk");
export const FRAME = "frames/ebc1a12310fa96efae931acb75771ee38856cfb70a921e7fb5bfa34128a9262b.png";

/** Copies the fixture cassette to `dir` (a new folder). */
export function copyCassette(dir: string): string {
  cpSync(SOURCE, dir, { recursive: true });
  return dir;
}

/** A replay log that used only seq 1 (`get_screen_size`), finished. */
export function usedLog(file: string, seqs: readonly number[] = [1]): string {
  const requests = seqs.map((seq, n) =>
    JSON.stringify({
      type: "request",
      n,
      t_ms: n,
      transport: "cli",
      method: "call",
      tool: "get_screen_size",
      kind: "read",
      epoch_before: 0,
      epoch_after: 0,
      outcome: "replayed",
      matched_seq: seq,
    }),
  );
  const summary = JSON.stringify({ type: "summary", t_ms: 9, served: seqs.length, unmatched: 0, faults: 0, unused: [] });
  writeFileSync(file, `${[...requests, summary].join("\n")}\n`);
  return file;
}

/** The lines of a cassette.jsonl (without the final newline). */
export const linesOf = (dir: string) => readFileSync(path.join(dir, "cassette.jsonl"), "utf8").replace(/\n$/, "").split("\n");

/** Rewrites line `n` (1-based) of a cassette.jsonl through `edit`. */
export function editLine(dir: string, n: number, edit: (json: Record<string, unknown>) => Record<string, unknown> | string): void {
  const lines = linesOf(dir);
  const out = edit(JSON.parse(lines[n - 1]!) as Record<string, unknown>);
  lines[n - 1] = typeof out === "string" ? out : JSON.stringify(out);
  writeFileSync(path.join(dir, "cassette.jsonl"), `${lines.join("\n")}\n`);
}
