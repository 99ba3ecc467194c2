import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCassette } from "#src/cassette/reader.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

describe("inspect reads the cassette line by line", () => {
  it("counts what readCassette loads, for both bundled recordings", async () => {
    for (const dir of ["recordings/gtk3-demo-cli", "recordings/gtk3-demo-mcp"]) {
      const r = await runCliInProcess(["inspect", dir, "--json"]);
      expect(r.exitCode).toBe(0);
      const summary = JSON.parse(String(r.stdout)) as { events: number; frames: { count: number }; probe: { status: string } };
      const cassette = await readCassette(dir);
      expect(summary.events).toBe(cassette.events.length);
      expect(summary.frames.count).toBe(cassette.frameStats.count);
      expect(summary.probe.status).toBe("matches");
    }
  });

  it("says what is wrong with cassette.jsonl: a directory is not 'missing'", async () => {
    await using dir = await tmpDir();
    mkdirSync(path.join(dir.path, "cassette.jsonl"));
    const r = await runCliInProcess(["inspect", dir.path]);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toBe(
      `cua-contract: ${path.join(dir.path, "cassette.jsonl")}: cassette.jsonl is a directory, not a file. Pass the directory that \`cua-contract record --out DIR\` wrote (it holds cassette.jsonl).`,
    );
  });

  it("an invalid event gets the schema's own message, naming the line and field", async () => {
    await using dir = await tmpDir();
    const lines = readFileSync("recordings/gtk3-demo-cli/cassette.jsonl", "utf8").trimEnd().split("\n").slice(0, 6);
    const bad = JSON.parse(lines[4]!) as Record<string, unknown>;
    bad.exit_code = "zero";
    lines[4] = JSON.stringify(bad);
    writeFileSync(path.join(dir.path, "cassette.jsonl"), `${lines.join("\n")}\n`);
    const r = await runCliInProcess(["inspect", dir.path]);
    expect(r.exitCode).toBe(2);
    const viaReader = await readCassette(dir.path, { frames: "skip" }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(viaReader).toMatch(/:5: exit_code: invalid event: /);
    expect(String(r.stderr)).toBe(`cua-contract: ${viaReader}`);
  });
});
