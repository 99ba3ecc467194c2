import { describe, expect, it } from "vitest";
import { outcomeLines, parseMatrix } from "./kit.js";

const HEAD = "## Fault matrix\n\n| id | call | fault | exit | key line | must violate | reasoning |\n| --- | --- | --- | --- | --- | --- | --- |\n";

describe("a kit's fault matrix, read from its README", () => {
  it("reads each row: the call, the fault, the exit, the key line and the invariants", () => {
    const rows = parseMatrix(
      `# Kit\n\n${HEAD}| a | \`click\` #2 | \`{"kind":"hang"}\` | 1 | \`timed out\` | rebuild-before-mutation, no-replay-after-unknown | why \\| more |\n| b | \`press_key\` #1 | \`{"kind":"refusal","code":"input_busy"}\` | 0 | \`ok\` | none | refused |\n\nafter\n`,
      "x/README.md",
    );
    expect(rows).toEqual([
      {
        id: "a",
        tool: "click",
        nth: 2,
        fault: { kind: "hang" },
        exitCode: 1,
        keyLine: "timed out",
        violations: ["no-replay-after-unknown", "rebuild-before-mutation"],
        reasoning: "why | more",
      },
      { id: "b", tool: "press_key", nth: 1, fault: { kind: "refusal", code: "input_busy" }, exitCode: 0, keyLine: "ok", violations: [], reasoning: "refused" },
    ]);
  });

  it("names the row and the cell that is wrong", () => {
    expect(() => parseMatrix("# Kit\n", "x/README.md")).toThrow('x/README.md: no "## Fault matrix" section');
    expect(() => parseMatrix(`${HEAD}| a | click | \`{"kind":"hang"}\` | 1 | k | none | r |\n`, "x/README.md")).toThrow(
      'x/README.md: row 1: call "click" is not `tool` #n',
    );
    expect(() => parseMatrix(`${HEAD}| a | \`click\` #1 | \`{"kind":"nap"}\` | 1 | k | none | r |\n`, "x/README.md")).toThrow(
      /x\/README.md: row 1: fault \{"kind":"nap"\}/,
    );
    expect(() => parseMatrix(`${HEAD}| a | \`click\` #1 | \`{"kind":"hang"}\` | 1 | k | none |\n`, "x/README.md")).toThrow(
      "x/README.md: row 1: 6 cells, expected 7",
    );
    expect(() => parseMatrix("## Fault matrix\n\n| id | call |\n| --- | --- |\n", "x/README.md")).toThrow(
      /the table's columns are id, call; expected id, call, fault/,
    );
  });

  it("compares only what the outcome patterns match, so times and paths do not count", () => {
    const spec = { command: [], cwd: ".", env: {}, outcome: ["^Ran \\d+ tests?", "^FAILED.*"] };
    expect(outcomeLines(spec, 'File "/a/b.py", line 3\nRan 17 tests in 0.638s\n\nFAILED (failures=5)\n')).toEqual(["Ran 17 tests", "FAILED (failures=5)"]);
  });
});
