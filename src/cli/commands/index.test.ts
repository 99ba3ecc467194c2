import { describe, expect, it } from "vitest";
import { commandName } from "#src/cli/command.js";
import { commands } from "./index.js";

describe("the command list", () => {
  it.each(commands.map((c) => [commandName(c), c] as const))("%s: the list's usage and description are the command's own", async (_name, entry) => {
    const command = await entry.load();
    expect({ command: [command.command].flat()[0], describe: command.describe }).toEqual({ command: entry.command, describe: entry.describe });
  });

  it("names each command once", () => {
    const names = commands.map(commandName);
    expect(new Set(names).size).toBe(names.length);
  });
});
