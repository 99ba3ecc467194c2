import path from "node:path";
import { repoRoot } from "./run-cli.js";
import { runCliInProcess } from "./run-cli-in-process.js";

// The per-call CLI replay tests: a recorded gtk3-demo cassette served to test/e2e/replay/cli-harness.py,
// which runs the given `cua-driver` steps and prints what it saw as one JSON line.
export const CASSETTE = path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk");
export const HARNESS = path.join(repoRoot, "test/e2e/replay/cli-harness.py");
export const TOKEN = JSON.stringify({ pid: 24132, window_id: 4194311, element_token: "s00000004:15" });
export const PRESS = JSON.stringify({ pid: 24132, window_id: 4194311, key: "escape" });

/** What the harness saw for one step. */
export interface Seen {
  exit?: number;
  stdout?: string;
  stderr?: string;
  timeout?: boolean;
  elapsed_ms: number;
  file_b64?: string;
}

/** `replay CASSETTE [extra] --json -- python3 cli-harness.py STEPS`: the run, what the harness saw, and the summary. */
export async function replayPython(options: { steps: unknown[]; extra?: string[]; env?: Record<string, string> }) {
  const result = await runCliInProcess(["replay", CASSETTE, ...(options.extra ?? []), "--json", "--", "python3", HARNESS, JSON.stringify(options.steps)], {
    ...(options.env ? { env: options.env } : {}),
  });
  const [seenLine, summaryLine] = result.stdout.trim().split("\n");
  return { result, seen: JSON.parse(seenLine!) as Seen[], summary: JSON.parse(summaryLine!) as Record<string, unknown> };
}
