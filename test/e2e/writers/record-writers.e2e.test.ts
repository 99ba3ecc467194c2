// What `record` writes about redaction and file modes (docs/cassettes.md, "Redaction" and "File modes").
import { chmodSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCassetteSync } from "#src/cassette/reader.js";
import { repoRoot } from "../../helpers/run-cli.js";
import { runCliInProcess } from "../../helpers/run-cli-in-process.js";
import { tmpDir } from "../../helpers/tmp-dir.js";
import { usedLog } from "./fixture.js";

const DRIVER = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const record = (out: string, flags: string[], script: string) =>
  runCliInProcess(["record", "--out", out, "--no-probe", "--driver", DRIVER, "--driver-source", "synthetic", ...flags, "--", "sh", "-c", script]);
const windowState = (note: string) => `cua-driver call get_window_state '{"pid":1,"window_id":2,"note":"${note}"}' >/dev/null`;

describe("record and redaction", () => {
  it('--no-redact stores typed text as it is, and the header says redaction is off (was: patterns ["false"])', async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "c");
    const r = await record(out, ["--no-redact"], `cua-driver call type_text '{"text":"hunter2"}' >/dev/null; ${windowState("false")}`);
    expect(r.exitCode, r.stderr).toBe(0);
    const cassette = readCassetteSync(out);
    expect(cassette.header.redaction).toEqual({ enabled: false });
    const text = readFileSync(path.join(out, "cassette.jsonl"), "utf8");
    expect(text).toContain("hunter2");
    expect(text).not.toContain("«redacted");
  });

  it("--append applies the header's --redact patterns without repeating them, adds new ones to the header, and refuses --no-redact", async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "c");
    expect((await record(out, ["--redact", "SECRET[0-9]+"], windowState("SECRET42"))).exitCode).toBe(0);
    const appended = await record(out, ["--append", "--redact", "TOKEN-[a-z]+"], `${windowState("SECRET99")}; ${windowState("TOKEN-abc")}`);
    expect(appended.exitCode, appended.stderr).toBe(0);
    const lines = readFileSync(path.join(out, "cassette.jsonl"), "utf8").split("\n");
    expect(lines.slice(1).join("\n")).not.toMatch(/SECRET42|SECRET99|TOKEN-abc/);
    expect(readCassetteSync(out).header.redaction).toEqual({ enabled: true, patterns: ["SECRET[0-9]+", "TOKEN-[a-z]+"] });
    const refused = await record(out, ["--append", "--no-redact"], "true");
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /cassette\.jsonl: --no-redact: the cassette was recorded with redaction on; --append cannot add events with it off\. Drop --no-redact/,
    );
  });
});

describe("file modes", () => {
  it("a new cassette is private (0600 files, 0700 folders); a rewrite keeps the mode the user gave a file", async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "c");
    expect((await record(out, [], windowState("x"))).exitCode).toBe(0);
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(out)).toBe(0o700);
    expect(mode(path.join(out, "cassette.jsonl"))).toBe(0o600);
    // shared on purpose: a prune in place keeps it so (was: silently made 0600)
    const file = path.join(out, "cassette.jsonl");
    chmodSync(file, 0o644);
    const log = usedLog(path.join(dir.path, "log.jsonl"), [2]); // the harness's one call (after --version and manifest)
    const pruned = await runCliInProcess(["cassette", "prune", out, "--log", log]);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(mode(file)).toBe(0o644);
  });
});
