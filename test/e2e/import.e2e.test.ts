import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { storedFrameRefs } from "#src/cassette/frame-signature.js";
import { readCassette } from "#src/cassette/reader.js";
import { storedSignature } from "#src/harness/screen/sign-frames.js";
import { restoreText } from "#src/cassette/restore.js";
import { renderCall } from "#src/transports/cli/wire/render-call.js";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const fixtures = path.join(repoRoot, "test/fixtures/trajectories");
const real = path.join(fixtures, "gtk3-demo-0.21.0");
// What the driver returned for each recorded action, captured in the same run as the trajectory.
const oracle = readFileSync(path.join(fixtures, "gtk3-demo-0.21.0.results.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { tool: string; arguments: Record<string, unknown>; result: unknown });

function pngOf(stdout: string): Buffer | undefined {
  const b64 = (JSON.parse(stdout) as { screenshot_png_b64?: string }).screenshot_png_b64;
  return b64 ? Buffer.from(b64, "base64") : undefined;
}

describe("cua-contract import (real 0.21.0 trajectory)", () => {
  it("writes a cassette whose mutations print exactly what the driver returned", async () => {
    await using tmp = await tmpDir();
    const out = path.join(tmp.path, "cassette");
    const run = await runCliInProcess(["import", real, "--out", out, "--driver-source", "sdk"]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^Imported 5 turns into .*: 5 mutations, \d+ reconstructed get_window_state observations/);
    const cassette = await readCassette(out);
    expect(cassette.header.transport).toBe("cli");
    expect(cassette.header.driver.source).toBe("sdk");
    expect(cassette.header.driver.platform).toBe("linux");
    expect(cassette.header.notes?.join("\n")).toMatch(/read-only calls were reconstructed/);
    // every frame is stored with its screen signature, so a report of it decodes none
    const refs = storedFrameRefs(out);
    expect(refs.length).toBeGreaterThan(1);
    for (const ref of refs) expect(storedSignature({ dir: out, ref, bytes: readFileSync(path.join(out, ref)) }), ref).toBeDefined();
    const mutations = cassette.events.filter((e) => e.kind === "cli" && e.argv[1] !== "get_window_state");
    expect(mutations.map((e) => (e.kind === "cli" ? e.argv[1] : ""))).toEqual(oracle.map((o) => o.tool));
    mutations.forEach((event, i) => {
      const truth = renderCall({ raw: JSON.stringify(oracle[i]!.result) }).stdout;
      expect(restoreText(cassette, event, "stdout")).toBe(truth);
      if (event.kind === "cli")
        expect(JSON.parse(event.argv[2]!)).toMatchObject({
          ...oracle[i]!.arguments,
          ...(oracle[i]!.tool === "type_text" ? { text: expect.stringMatching(/^«redacted:text:[0-9a-f]{8}»$/) } : {}),
        });
    });
  });

  it("puts each before/after state in the right epoch, with the exact window image", async () => {
    await using tmp = await tmpDir();
    const out = path.join(tmp.path, "cassette");
    expect((await runCliInProcess(["import", real, "--out", out])).exitCode).toBe(0);
    const cassette = await readCassette(out);
    expect(cassette.header.driver.source).toBe("binary");
    let turn = 0;
    let lastObservation: Buffer | undefined;
    let firstAfter = false;
    for (const event of cassette.events) {
      if (event.kind !== "cli") continue;
      const turnDir = path.join(real, `turn-${String(turn + 1).padStart(5, "0")}`);
      if (event.argv[1] === "get_window_state") {
        lastObservation = pngOf(restoreText(cassette, event, "stdout"));
        if (firstAfter) {
          // The first observation after mutation N is turn N's after state.
          const prevDir = path.join(real, `turn-${String(turn).padStart(5, "0")}`);
          expect(lastObservation?.equals(readFileSync(path.join(prevDir, "after.png")))).toBe(true);
          firstAfter = false;
        }
        continue;
      }
      // The observation answered just before mutation N+1 is turn N+1's before state.
      expect(lastObservation?.equals(readFileSync(path.join(turnDir, "before.png")))).toBe(true);
      turn++;
      firstAfter = true;
    }
    expect(turn).toBe(5);
    expect(firstAfter).toBe(false);
  });

  it("redacts typed text by default and keeps it with --no-redact", async () => {
    await using tmp = await tmpDir();
    expect((await runCliInProcess(["import", real, "--out", path.join(tmp.path, "a")])).exitCode).toBe(0);
    expect(readFileSync(path.join(tmp.path, "a", "cassette.jsonl"), "utf8")).not.toContain("hello");
    expect((await runCliInProcess(["import", real, "--out", path.join(tmp.path, "b"), "--no-redact"])).exitCode).toBe(0);
    expect(readFileSync(path.join(tmp.path, "b", "cassette.jsonl"), "utf8")).toContain('\\"text\\":\\"hello\\"');
  });

  it("refuses to overwrite a cassette without --force", async () => {
    await using tmp = await tmpDir();
    const out = path.join(tmp.path, "c");
    expect((await runCliInProcess(["import", real, "--out", out])).exitCode).toBe(0);
    const again = await runCliInProcess(["import", real, "--out", out]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/already holds a cassette/);
    expect((await runCliInProcess(["import", real, "--out", out, "--force"])).exitCode).toBe(0);
  });
});

describe("an imported trajectory replays offline", () => {
  it("answers a per-call CLI harness from the imported cassette, then reports the run", async () => {
    await using tmp = await tmpDir();
    const out = path.join(tmp.path, "cassette");
    expect((await runCliInProcess(["import", real, "--out", out])).exitCode).toBe(0);
    const log = path.join(tmp.path, "replay.jsonl");
    const click = JSON.stringify(oracle[0]!.arguments);
    const { pid, window_id } = oracle[0]!.arguments;
    const harness = `cua-driver call get_window_state '${JSON.stringify({ pid, window_id })}' && cua-driver call click '${click}'`;
    const run = await runCliInProcess(["replay", out, "--log", log, "--", "sh", "-c", harness]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const stdout = String(run.stdout);
    expect(stdout).toContain('"element_count": 171');
    // execa strips the final newline of the harness output
    expect(stdout.endsWith(renderCall({ raw: JSON.stringify(oracle[0]!.result) }).stdout.trimEnd())).toBe(true);
    const html = path.join(tmp.path, "replay.html");
    const report = await runCliInProcess(["report", log, "--cassette", out, "--out", html]);
    expect(report.exitCode, String(report.stderr)).toBe(0);
    // The replay passed (exit 0), so the report shows no failure; the four mutations it never sent are a note.
    expect(String(report.stdout)).toMatch(/from a replay-log: 2 calls, 0 failures, 1 screenshots/);
    expect(readFileSync(html, "utf8")).toMatch(
      /4 recorded mutation\(s\) never replayed: seq \d+ \(\w+\), seq \d+ \(\w+\), seq \d+ \(\w+\), seq \d+ \(\w+\)\. Replay fails on these only with --fail-on-unused\./,
    );
  });
});

describe("cua-contract import (broken trajectories)", () => {
  const cases: Array<[string, RegExp]> = [
    ["broken-missing-action", /broken-missing-action\/turn-00002\/action\.json: turn-00002 has no action\.json\./],
    ["broken-turn-gap", /broken-turn-gap\/turn-00003: turn numbers have a gap: turn-00002 is missing before turn-00003\./],
    ["broken-png", /broken-png\/turn-00002\/after\.png: turn-00002: after\.png does not decode as a PNG/],
  ];
  for (const [name, message] of cases) {
    it(`exits 2 naming the turn folder and file: ${name}`, async () => {
      await using tmp = await tmpDir();
      const out = path.join(tmp.path, "out");
      const run = await runCliInProcess(["import", path.join(fixtures, name), "--out", out]);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(String(run.stderr).trim().split("\n")).toHaveLength(1);
      expect(run.stdout).toBe("");
    });
  }

  it("exits 2 for a folder without turns", async () => {
    await using tmp = await tmpDir();
    const run = await runCliInProcess(["import", tmp.path, "--out", path.join(tmp.path, "out")]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/holds no turn-NNNNN\/ folders/);
  });
});
