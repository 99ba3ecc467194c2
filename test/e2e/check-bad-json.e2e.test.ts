import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

describe("check: a scenario file that is not JSON", () => {
  it("exits 2 with one line naming the file and the line of the syntax error", async () => {
    await using dir = await tmpDir();
    const file = path.join(dir.path, "broken.json");
    writeFileSync(file, '{\n  "id": "x",\n  "cassette": 3,\n}\n');
    const r = await runCliInProcess(["check", file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `cua-contract: ${file}:4: the scenario is not valid JSON (Expected double-quoted property name in JSON at position 32). Fix the JSON syntax.`,
    );
  });
});
