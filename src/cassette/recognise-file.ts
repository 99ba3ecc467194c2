/** What a file or folder given in the wrong place is, and which command takes it. */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export interface Recognised {
  /** "a replay log (written by `replay --log`)" */
  what: string;
  /** "`cua-contract report FILE --cassette DIR` reads it" */
  takenBy: string;
}

const MAX_SNIFF = 1 << 20;

/** Recognises the project's own files by their shape; undefined when it is none of them. */
export function recogniseFile(file: string): Recognised | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(file);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return recogniseFolder(file);
  const text = sniff(file, stat.size);
  if (text === undefined) return undefined;
  const first = parse(text.trimStart().split("\n", 1)[0] ?? "");
  if (isObject(first) && first.format === "cua-cassette") {
    return { what: "the event file inside a cassette", takenBy: `pass its folder, ${path.dirname(file)}, instead` };
  }
  if (isObject(first) && typeof first.type === "string" && ("t_ms" in first || "n" in first)) {
    return { what: "a replay log (written by `replay --log`)", takenBy: `\`cua-contract report ${file} --cassette DIR\` reads it` };
  }
  const whole = parse(text);
  if (!isObject(whole)) return undefined;
  if (Array.isArray(whole.scenarios) && "passed" in whole)
    return { what: "a check result (written by `check --json`)", takenBy: `\`cua-contract report ${file}\` reads it` };
  if (whole.format === "cua-probe") return { what: "a probe snapshot", takenBy: "`cua-contract probe --from`, `diff` and `contract init --from` read it" };
  if (whole.format === "cua-driver-contract") return { what: "a driver contract", takenBy: "`cua-contract probe --contract` and `gate --contract` read it" };
  if (whole.format === "cua-expected-failures") return { what: "a gate's expected-failures file", takenBy: "`cua-contract gate --expected-failures` reads it" };
  if (Array.isArray(whole.rules)) return { what: "a fault plan", takenBy: "`cua-contract replay DIR --faults` and `serve DIR --faults` read it" };
  if (typeof whole.cassette === "string" && Array.isArray(whole.steps)) return { what: "a scenario contract", takenBy: "`cua-contract check` reads it" };
  return undefined;
}

function recogniseFolder(dir: string): Recognised | undefined {
  if (existsSync(path.join(dir, "cassette.jsonl"))) {
    return {
      what: "a cassette (the folder `record --out` writes)",
      takenBy: '`cua-contract replay`, `serve`, `inspect` and `report` read it; a scenario names it in its "cassette" field',
    };
  }
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  if (names.some((n) => /^turn-\d{5}$/.test(n)))
    return { what: "a cua-driver trajectory folder (turn-NNNNN/)", takenBy: "`cua-contract import` turns it into a cassette" };
  return undefined;
}

function sniff(file: string, size: number): string | undefined {
  try {
    const bytes = readFileSync(file);
    return bytes.subarray(0, Math.min(size, MAX_SNIFF)).toString("utf8");
  } catch {
    return undefined;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
