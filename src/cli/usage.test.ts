import { describe, expect, it } from "vitest";
import { commandMessage, nearest, requiredPositionals } from "./usage.js";

describe("usage helpers", () => {
  it("suggests the nearest name only when it is near", () => {
    expect(nearest("ot", ["out", "driver", "force"])).toBe("out");
    expect(nearest("harnes", ["harness", "cmd"])).toBe("harness");
    expect(nearest("zzzzzz", ["port", "transport"])).toBeUndefined();
  });

  it("names required positionals as the usage line does", () => {
    expect(requiredPositionals({ command: "diff <a> <b>" })).toEqual(["A", "B"]);
    expect(requiredPositionals({ command: "check [scenarios..]" })).toEqual([]);
    expect(requiredPositionals({ command: ["report <input>", "r"] })).toEqual(["INPUT"]);
  });

  it("an unknown command gets the nearest one, or the list", () => {
    const commands = [
      { command: "inspect <dir>", describe: "" },
      { command: "check", describe: "" },
    ];
    expect(commandMessage({ message: "x", argv: ["inspct"], commands })).toEqual({
      message: "Unknown command: inspct. Did you mean inspect?",
      help: "cua-contract --help",
    });
    expect(commandMessage({ message: "x", argv: ["bogus"], commands }).message).toBe("Unknown command: bogus. Commands: inspect, check.");
    expect(commandMessage({ message: "Missing DIR", argv: ["inspect"], commands })).toEqual({ message: "Missing DIR", help: "cua-contract inspect --help" });
  });
});
