import type { ArgumentsCamelCase } from "yargs";
import type { CliCommand } from "./command.js";

/**
 * Parses a command's arguments without loading yargs (≈50 ms of start-up), for the plain cases
 * only: the command's builder is run against a recorder that accepts `positional` and `option`
 * with simple settings, and the argv may hold only its declared positionals, `--flag` booleans and
 * `--name value` / `--name=value` strings or numbers, each at most once. Anything else (a help
 * request, an unknown or repeated flag, a short flag, `--no-x`, a missing value, a builder that asks
 * for more) returns undefined and yargs parses, so every message and help text stays yargs'.
 * The result has yargs' shape: `_`, `$0`, each option under its name and its camelCase name.
 */
export function quickArgs(command: CliCommand, argv: readonly string[], scriptName: string): ArgumentsCamelCase | undefined {
  const spec = specOf(command);
  if (!spec) return undefined;
  const args: Record<string, unknown> = { _: [spec.name], $0: scriptName };
  const positionals: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith("-")) {
      positionals.push(token);
      continue;
    }
    if (!token.startsWith("--") || token === "--") return undefined;
    const eq = token.indexOf("=");
    const name = token.slice(2, eq < 0 ? undefined : eq);
    const option = spec.options.get(name);
    if (!option || seen.has(name)) return undefined;
    seen.add(name);
    let value: unknown;
    if (option.type === "boolean") {
      // yargs reads a following `true` / `false` as the flag's value
      if (eq >= 0 || argv[i + 1] === "true" || argv[i + 1] === "false") return undefined;
      value = true;
    } else {
      const text = eq >= 0 ? token.slice(eq + 1) : argv[++i];
      if (text === undefined || text === "" || text.startsWith("-")) return undefined;
      if (option.type === "number") {
        if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
        value = Number(text);
      } else value = text;
    }
    if (option.choices && !option.choices.includes(value)) return undefined;
    args[name] = value;
  }
  if (positionals.length !== spec.positionals.length) return undefined;
  for (const [i, name] of spec.positionals.entries()) args[name] = positionals[i];
  for (const [name, option] of spec.options) {
    if (!(name in args)) {
      if (option.demandOption) return undefined;
      if (option.default !== undefined) args[name] = option.default;
    }
  }
  for (const key of Object.keys(args)) {
    const camel = key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (camel !== key) args[camel] = args[key];
  }
  return args as ArgumentsCamelCase; // yargs' shape, `_` and `$0` included (the quick-args test holds it equal to what yargs parses)
}

interface QuickOption {
  type: "boolean" | "string" | "number";
  default?: unknown;
  demandOption?: boolean;
  choices?: readonly unknown[];
}

interface QuickSpec {
  name: string;
  positionals: string[];
  options: Map<string, QuickOption>;
}

// Settings of `option`/`positional` the quick parser honours exactly; any other means yargs parses.
const OPTION_KEYS = new Set(["type", "default", "describe", "description", "demandOption", "choices", "hidden"]);

const specs = new WeakMap<CliCommand, QuickSpec | null>();

function specOf(command: CliCommand): QuickSpec | undefined {
  if (!specs.has(command)) specs.set(command, buildSpec(command) ?? null);
  return specs.get(command) ?? undefined;
}

function buildSpec(command: CliCommand): QuickSpec | undefined {
  const usage = String([command.command].flat()[0]).split(" ");
  const positionals: string[] = [];
  for (const word of usage.slice(1)) {
    const m = /^<([a-z][a-z0-9-]*)>$/.exec(word);
    if (!m) return undefined; // optional or variadic positionals: yargs
    positionals.push(m[1]!);
  }
  const options = new Map<string, QuickOption>();
  const typedPositionals = new Set<string>();
  let plain = true;
  const recorder: Record<string, unknown> = {};
  const proxy: unknown = new Proxy(recorder, {
    get: (_target, prop) => {
      if (prop === "positional") {
        return (name: string, settings: Record<string, unknown>) => {
          if (
            !positionals.includes(name) ||
            settings.type !== "string" ||
            Object.keys(settings).some((k) => k !== "type" && k !== "describe" && k !== "description")
          )
            plain = false;
          typedPositionals.add(name);
          return proxy;
        };
      }
      if (prop === "option" || prop === "options") {
        return (name: string, settings: Record<string, unknown>) => {
          const type = settings.type;
          const ok =
            typeof name === "string" &&
            /^[a-z][a-z0-9-]*$/.test(name) &&
            (type === "boolean" || type === "string" || type === "number") &&
            Object.keys(settings).every((k) => OPTION_KEYS.has(k)) &&
            (settings.default === undefined || typeof settings.default === typeof (type === "number" ? 0 : type === "boolean" ? true : "")) &&
            (settings.choices === undefined || Array.isArray(settings.choices));
          if (!ok) plain = false;
          else
            options.set(name, {
              type,
              ...(settings.default !== undefined ? { default: settings.default } : {}),
              ...(settings.demandOption ? { demandOption: true } : {}),
              ...(settings.choices ? { choices: settings.choices as unknown[] } : {}),
            });
          return proxy;
        };
      }
      if (prop === "example" || prop === "epilogue" || prop === "epilog" || prop === "usage") return () => proxy;
      plain = false;
      return () => proxy;
    },
  });
  try {
    command.builder(proxy as never);
  } catch {
    return undefined;
  }
  if (!plain || positionals.some((p) => !typedPositionals.has(p) || options.has(p))) return undefined;
  return { name: usage[0]!, positionals, options };
}
