import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { parseDriverArgv } from "#src/cassette/index.js";
import { eventText } from "#src/probe/event-json.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { CliResponse, ShimBackend } from "#src/shim-server/backend.js";
import type { IdMap } from "./id-map.js";
import type { Unredactor } from "./secrets.js";
import { jsonObject as json } from "./answer-diff.js";
import { judgeCliAnswer, type CliAnswer } from "./judge-answer.js";

export interface CliStepResult {
  /** The argv and stdin as sent (recorded ids replaced by live ones, file paths moved to the work dir). */
  argv: string[];
  stdin: Buffer;
  response: CliResponse;
  files: Record<string, { bytes: Buffer; path: string }>;
  recordedJson: unknown;
  liveJson: unknown;
  differences: ReturnType<typeof judgeCliAnswer>;
  duration_ms: number;
}

const FILE_FLAGS = ["--screenshot-out-file"];

/** The recorded argv and stdin with live ids, and file flags pointed into `work`. */
export function cliRequestFor(
  event: Extract<CassetteEvent, { kind: "cli" }>,
  ids: IdMap,
  work: string,
  secrets: Unredactor,
): { argv: string[]; stdin: Buffer } {
  const parsed = parseDriverArgv(event.argv);
  const argv = [...event.argv];
  if (parsed.json !== undefined) {
    const at = argv.indexOf(parsed.json);
    const value = json(parsed.json);
    if (at >= 0 && value !== undefined) argv[at] = JSON.stringify(secrets.apply(ids.apply(value)));
  }
  for (let i = 0; i < argv.length; i++) {
    for (const flag of FILE_FLAGS) {
      if (argv[i] === flag && i + 1 < argv.length) argv[i + 1] = path.join(work, path.basename(argv[i + 1]!));
      else if (argv[i]!.startsWith(`${flag}=`)) argv[i] = `${flag}=${path.join(work, path.basename(argv[i]!.slice(flag.length + 1)))}`;
    }
  }
  const stdinText = eventText(event, "stdin");
  const stdinValue = json(stdinText);
  const stdin = Buffer.from(stdinValue !== undefined ? JSON.stringify(secrets.apply(ids.apply(stdinValue))) : stdinText);
  return { argv, stdin };
}

/** Sends one recorded per-call invocation to the candidate and compares its answer with the recorded one. */
export async function runCliStep(options: {
  event: Extract<CassetteEvent, { kind: "cli" }>;
  backend: ShimBackend;
  ids: IdMap;
  secrets: Unredactor;
  work: string;
  env: Record<string, string>;
  tolerance: number;
  timeoutMs: number;
}): Promise<CliStepResult> {
  const { event, work } = options;
  const { argv, stdin } = cliRequestFor(event, options.ids, work, options.secrets);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const started = performance.now();
  let response: CliResponse;
  try {
    response = await options.backend.cli({ argv, stdin, cwd: work, env: options.env, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
  const duration_ms = performance.now() - started;
  const files: CliStepResult["files"] = {};
  const parsed = parseDriverArgv(argv);
  for (const flag of FILE_FLAGS) {
    const target = parsed.flags.get(flag);
    if (typeof target !== "string") continue;
    const info = await stat(target).catch(() => undefined);
    if (info && info.size > 0) files[flag] = { bytes: await readFile(target), path: target };
    await rm(target, { force: true });
  }
  const recorded: CliAnswer = {
    stdout: eventText(event, "stdout"),
    stderr: eventText(event, "stderr"),
    exitCode: event.exit_code,
    files: Object.keys(event.files ?? {}),
  };
  const live: CliAnswer = {
    stdout: response.stdout.toString("utf8"),
    stderr: response.stderr.toString("utf8"),
    exitCode: response.exitCode,
    files: Object.keys(files),
  };
  const recordedJson = json(recorded.stdout);
  const liveJson = json(live.stdout);
  if (recordedJson !== undefined && liveJson !== undefined) options.ids.learn(recordedJson, liveJson);
  return { argv, stdin, response, files, recordedJson, liveJson, differences: judgeCliAnswer(recorded, live, options.tolerance), duration_ms };
}
