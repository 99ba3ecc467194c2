import yargs from "yargs";
import { describe, expect, it } from "vitest";
import { commandName, type CliCommand } from "./command.js";
import { commands } from "./commands/index.js";
import { quickArgs } from "./quick-args.js";

// What yargs hands the handler for the same argv (with the CLI's strict settings), or the error it throws.
async function yargsArgs(command: CliCommand, argv: string[]): Promise<Record<string, unknown> | "rejected"> {
  let seen: Record<string, unknown> | undefined;
  try {
    await yargs(argv)
      .scriptName("cua-contract")
      .strict()
      .exitProcess(false)
      .fail((message, error) => {
        throw error ?? new Error(message);
      })
      .command({ ...command, handler: (args: Record<string, unknown>) => void (seen = args) } as never)
      .parseAsync();
  } catch {
    return "rejected";
  }
  return seen ?? "rejected";
}

// Every option a builder declares, as yargs sees them, to build argvs that use them all.
function declared(command: CliCommand): Array<{ name: string; type: unknown; choices?: unknown[] }> {
  const out: Array<{ name: string; type: unknown; choices?: unknown[] }> = [];
  const proxy: unknown = new Proxy(
    {},
    {
      get: (_t, prop) =>
        prop === "option" || prop === "options"
          ? (name: string, s: { type?: unknown; choices?: unknown[] }) => (
              out.push({ name, type: s.type, ...(s.choices ? { choices: s.choices } : {}) }), proxy
            )
          : () => proxy,
    },
  );
  command.builder(proxy as never);
  return out;
}

function argvsFor(command: CliCommand): string[][] {
  const name = commandName(command);
  const positionals = String([command.command].flat()[0])
    .split(" ")
    .slice(1)
    .map((_, i) => `p${i}`);
  const options = declared(command);
  const value = (o: { type: unknown; choices?: unknown[] }) => (o.choices ? String(o.choices[0]) : o.type === "number" ? "3" : "v.json");
  const all = options.flatMap((o) => (o.type === "boolean" ? [`--${o.name}`] : [`--${o.name}`, value(o)]));
  const withEq = options.flatMap((o) => (o.type === "boolean" ? [] : [`--${o.name}=${value(o)}`]));
  return [
    [name, ...positionals],
    [name, ...positionals, ...all],
    [name, ...all, ...positionals],
    [name, ...positionals, ...withEq],
    [name, ...positionals, "extra"],
    [name],
    [name, ...positionals, "--bogus"],
    [name, ...positionals, "--help"],
    ...options
      .filter((o) => o.type === "boolean")
      .flatMap((o) => [
        [name, ...positionals, `--${o.name}`, "false"],
        [name, ...positionals, `--no-${o.name}`],
        [name, ...positionals, `--${o.name}=true`],
      ]),
    ...options
      .filter((o) => o.type !== "boolean")
      .flatMap((o) => [
        [name, ...positionals, `--${o.name}`],
        [name, ...positionals, `--${o.name}`, "a", `--${o.name}`, "b"],
        [name, ...positionals, `--${o.name}`, "-x"],
      ]),
    ...options.filter((o) => o.type === "number").map((o) => [name, ...positionals, `--${o.name}`, "1e3"]),
  ];
}

describe("quickArgs", () => {
  it.each(commands.map((c) => [commandName(c), c] as const))("%s: whatever it parses, yargs parses the same", async (_name, entry) => {
    const command = await entry.load();
    for (const argv of argvsFor(command)) {
      const quick = quickArgs(command, argv.slice(1), "cua-contract");
      if (!quick) continue;
      const expected = await yargsArgs(command, argv);
      expect({ argv, args: quick }).toEqual({ argv, args: expected });
    }
  });

  it("takes inspect's plain forms, and leaves every other form to yargs", async () => {
    const inspect = await commands.find((c) => commandName(c) === "inspect")!.load();
    expect(quickArgs(inspect, ["rec"], "cua-contract")).toEqual({ _: ["inspect"], $0: "cua-contract", dir: "rec", json: false });
    expect(quickArgs(inspect, ["--json", "rec"], "cua-contract")).toMatchObject({ dir: "rec", json: true });
    for (const rest of [
      [],
      ["a", "b"],
      ["rec", "--help"],
      ["rec", "--jsn"],
      ["rec", "--json", "true"],
      ["rec", "--no-json"],
      ["rec", "-j"],
      ["rec", "--json", "--json"],
    ]) {
      expect(quickArgs(inspect, rest, "cua-contract"), rest.join(" ")).toBeUndefined();
    }
  });
});
