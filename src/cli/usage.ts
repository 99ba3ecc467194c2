/**
 * How the CLI answers bad usage, for every command alike: the unknown flag named first with the
 * nearest known one, a missing positional named as the usage line names it, numbers checked,
 * and a command's own usage line followed by its description.
 */
import type { Argv } from "yargs";
import { editDistance } from "#src/harness/core/nearest-action.js";

export class UsageFailure extends Error {}

/** The part of a command the usage messages need: its yargs command string and description. */
export interface CommandSpec {
  command: string | readonly string[];
  describe: string;
}

export const commandName = (spec: Pick<CommandSpec, "command">): string => String([spec.command].flat()[0]).split(" ")[0]!;

/** A builder whose custom `.usage(line)` keeps the command's description under the line. */
export function describedBuilder(describe: string, builder: (y: Argv) => Argv): (y: Argv) => Argv {
  return (y) => {
    const usage = y.usage.bind(y) as (...args: unknown[]) => Argv;
    (y as unknown as { usage: (...args: unknown[]) => Argv }).usage = (message: unknown, ...rest: unknown[]) =>
      usage(typeof message === "string" && rest.length === 0 ? `${message}\n\n${describe}` : message, ...rest);
    try {
      return builder(y);
    } finally {
      (y as unknown as { usage: unknown }).usage = usage;
    }
  };
}

/** The nearest candidate, when it is near enough to be what was meant. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = name.startsWith(word) || word.startsWith(name) ? Math.min(1, editDistance(word, name)) : editDistance(word, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
}

interface ParserOptions {
  key: Record<string, unknown>;
  alias: Record<string, string[]>;
  boolean: string[];
  number: string[];
}

const options = (parser: Argv) => (parser as unknown as { getOptions(): ParserOptions }).getOptions();
const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Flags on the command line (before `--`) that the running command does not define. */
export function unknownFlags(argv: readonly string[], parser: Argv): { flag: string; suggestion?: string }[] {
  const o = options(parser);
  const positionals = new Set(Object.keys(o.alias).filter((k) => !(k in o.key)));
  const known = new Set([...Object.keys(o.key), ...Object.values(o.alias).flat()].filter((k) => !positionals.has(k)));
  const flags = [...known].filter((k) => k.length > 1 && !/[A-Z]/.test(k));
  const end = argv.indexOf("--");
  const unknown: { flag: string; suggestion?: string }[] = [];
  for (const token of end === -1 ? argv : argv.slice(0, end)) {
    if (!/^--?[^-\d]/.test(token)) continue;
    const name = token.replace(/^--?/, "").split("=")[0]!;
    const bare = name.startsWith("no-") ? name.slice(3) : name;
    if (known.has(name) || known.has(camel(name)) || known.has(bare) || known.has(camel(bare))) continue;
    const suggestion = nearest(name, flags);
    unknown.push({ flag: token.split("=")[0]!, ...(suggestion ? { suggestion: `--${suggestion}` } : {}) });
  }
  return unknown;
}

/** Positionals a command string requires (`inspect <dir>` → DIR), in order. */
export function requiredPositionals(spec: Pick<CommandSpec, "command">): string[] {
  return [...String([spec.command].flat()[0]).matchAll(/<([^>]+)>/g)].map((m) => m[1]!.replace(/\.\.$/, "").toUpperCase());
}

/**
 * The one-line message for a yargs validation failure: unknown flags win over anything else
 * yargs noticed first (a mistyped --out is why --out is "missing").
 */
export function usageMessage(options: { message: string; argv: readonly string[]; parser: Argv; commands: readonly CommandSpec[] }): string {
  const unknown = unknownFlags(options.argv, options.parser);
  if (unknown.length > 0) {
    return `Unknown option${unknown.length > 1 ? "s" : ""} ${unknown
      .map((u) => (u.suggestion ? `${u.flag} (did you mean ${u.suggestion}?)` : u.flag))
      .join(", ")}.`;
  }
  const spec = options.commands.find((c) => commandName(c) === options.argv[0]);
  const few = /^Not enough non-option arguments: got (\d+)/.exec(options.message);
  if (few && spec) {
    const missing = requiredPositionals(spec).slice(Number(few[1]));
    if (missing.length > 0) {
      const line = [commandName(spec), ...requiredPositionals(spec)].join(" ");
      return `Missing ${missing.join(" and ")}: run it as \`cua-contract ${line}\`.`;
    }
  }
  const unknownValue = /^Unknown arguments?: (.*)$/.exec(options.message);
  if (unknownValue) return `Unexpected argument${unknownValue[1]!.includes(",") ? "s" : ""} ${unknownValue[1]}.`;
  return oneLine(options.message);
}

/** A number option given something that is not a number (yargs would pass NaN on). */
export function checkNumbers(argv: readonly string[], parser: Argv, args: Record<string, unknown>): void {
  for (const name of options(parser).number) {
    const value = args[name];
    if (typeof value !== "number" || !Number.isNaN(value)) continue;
    throw new UsageFailure(`--${name} must be a number, got ${JSON.stringify(rawValue(argv, name) ?? "")}.`);
  }
}

function rawValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1];
    if (argv[i]!.startsWith(`--${name}=`)) return argv[i]!.slice(name.length + 3);
  }
  return undefined;
}

/** What to print for a failure outside any known command (a mistyped command). */
export function commandMessage(options: { message: string; argv: readonly string[]; commands: readonly CommandSpec[] }): { message: string; help: string } {
  const names = options.commands.map(commandName);
  const first = options.argv[0] ?? "";
  const known = names.includes(first);
  if (!known && first !== "" && !first.startsWith("-")) {
    const guess = nearest(first, names);
    return { message: `Unknown command: ${first}. ${guess ? `Did you mean ${guess}?` : `Commands: ${names.join(", ")}.`}`, help: "cua-contract --help" };
  }
  return { message: options.message, help: known ? `cua-contract ${first} --help` : "cua-contract --help" };
}

/** yargs' multi-line usage messages, reworded so each fits one line and names the fix. */
export const USAGE_STRINGS = {
  "Argument: %s, Given: %s, Choices: %s": "%s: %s is not a valid value; choose one of %s.",
  "Missing required argument: %s": { one: "Missing required option: --%s.", other: "Missing required options: %s." },
} as unknown as Record<string, string>;

const oneLine = (message: string) =>
  message
    .replace(/^Invalid values:\s*/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
