import { execa } from "execa";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCassette, restoreBytes, readFrame } from "#src/cassette/index.js";
import type { CliEvent } from "#src/schema/cassette.js";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");

// A harness in another language: it calls `cua-driver` from PATH and keeps what it saw.
const PY_HARNESS = String.raw`
import base64, json, subprocess, sys
work = sys.argv[1]
calls = [
  (["call", "get_screen_size", "{}"], None),
  (["call", "get_desktop_state", "{}", "--screenshot-out-file", work + "/shot.png"], None),
  (["call", "click", '{"pid":1,"element_token":"s00000001:0"}'], None),
  (["call", "get_window_state"], '{"pid":1,"window_id":2}'),
  (["call", "type_text", '{"pid":1,"window_id":2,"text":"my secret words"}'], None),
  (["call", "get_desktop_state", "{}"], None),
  (["call", "get_screen_size", "{not json"], None),
]
seen = []
for argv, stdin in calls:
  p = subprocess.run(["cua-driver", *argv], input=(stdin or "").encode(), capture_output=True)
  seen.append({"argv": argv, "stdin": stdin, "stdout": base64.b64encode(p.stdout).decode(), "stderr": base64.b64encode(p.stderr).decode(), "code": p.returncode})
json.dump(seen, open(work + "/seen.json", "w"))
sys.exit(3)
`;

interface Seen {
  argv: string[];
  stdin: string | null;
  stdout: string;
  stderr: string;
  code: number;
}

describe("record: per-call CLI", () => {
  it("records a Python harness's calls byte-exactly, with frames, redaction and identity", async () => {
    await using work = await tmpDir();
    const out = path.join(work.path, "rec");
    writeFileSync(path.join(work.path, "h.py"), PY_HARNESS);
    const r = await runCliInProcess(["record", "--out", out, "--driver", fake, "--", "python3", path.join(work.path, "h.py"), work.path]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(3); // the harness's exit code passes through
    const seen = JSON.parse(readFileSync(path.join(work.path, "seen.json"), "utf8")) as Seen[];
    const cassette = await readCassette(out);
    const harness = cassette.events.filter((e): e is CliEvent => e.kind === "cli" && e.origin === "harness");
    expect(harness).toHaveLength(seen.length);
    for (const [i, call] of seen.entries()) {
      const event = harness[i]!;
      const direct = await execa(
        fake,
        call.argv.map((a) => (a.endsWith("shot.png") ? path.join(work.path, "direct.png") : a)),
        {
          reject: false,
          encoding: "buffer",
          stripFinalNewline: false,
          input: call.stdin ?? "",
        },
      );
      const recorded = restoreBytes(cassette, event, "stdout");
      expect(recorded.equals(Buffer.from(call.stdout, "base64"))).toBe(true);
      expect(recorded.equals(Buffer.from(direct.stdout))).toBe(true);
      expect(restoreBytes(cassette, event, "stderr").equals(Buffer.from(call.stderr, "base64"))).toBe(true);
      expect(event.exit_code).toBe(call.code);
      expect(event.exit_code).toBe(direct.exitCode);
    }
    // A refusal exits 0 and is on stdout; bad JSON exits 2.
    expect([seen[2]!.code, Buffer.from(seen[2]!.stdout, "base64").toString()]).toEqual([0, expect.stringContaining('"code": "stale_element_token"')]);
    expect(seen[6]!.code).toBe(2);
    // stdin-fed arguments are recorded.
    expect(harness[3]!.stdin).toBe('{"pid":1,"window_id":2}');
    // The out-file is a frame, byte-identical to what the driver wrote.
    const file = harness[1]!.files?.["--screenshot-out-file"];
    expect(file?.path).toBe(path.join(work.path, "shot.png"));
    expect(readFrame(cassette, file!.ref).equals(readFileSync(path.join(work.path, "shot.png")))).toBe(true);
    // The inline screenshot_png_b64 is cut out of the stored stdout and put back on read.
    expect(harness[5]!.frames).toHaveLength(1);
    expect(JSON.stringify(harness[5]!.stdout)).not.toContain("iVBORw0KGgo");
    // Typed text never reaches the disk.
    const raw = readFileSync(path.join(out, "cassette.jsonl"), "utf8");
    expect(raw).not.toContain("my secret words");
    expect(harness[4]!.argv[2]).toMatch(/^\{"pid":1,"window_id":2,"text":"«redacted:text:[0-9a-f]{8}»"\}$/);
    // Identity: --version output and manifest sha256, recorded as events by the recorder.
    const identity = cassette.events.filter((e): e is CliEvent => e.kind === "cli" && e.origin === "recorder");
    // The probe runs its steps side by side, so the two identity events come in either order.
    expect(identity.map((e) => e.argv).sort()).toEqual([["--version"], ["manifest"]]);
    const manifest = await execa(fake, ["manifest"], { encoding: "buffer", stripFinalNewline: false });
    const { createHash } = await import("node:crypto");
    expect(cassette.header.driver).toMatchObject({
      version: "0.21.0",
      version_output: "cua-driver 0.21.0\n",
      manifest_sha256: createHash("sha256").update(manifest.stdout).digest("hex"),
      source: "binary",
      location: fake,
    });
    expect(cassette.header.transport).toBe("cli");
    expect(cassette.header.redaction).toEqual({ enabled: true });
    const inspect = await runCliInProcess(["inspect", out, "--json"]);
    expect(inspect.exitCode).toBe(0);
    const doc = JSON.parse(String(inspect.stdout));
    expect(doc.events).toBe(seen.length + 2);
    expect(doc.frames).toEqual({ count: 1, bytes: readFileSync(path.join(work.path, "shot.png")).length, missing: [], mismatched: [] });
    expect(doc.warnings).toEqual([]);
    expect(doc.by_tool).toEqual({ get_screen_size: 2, get_desktop_state: 2, click: 1, get_window_state: 1, type_text: 1 });
    expect(doc.by_exit_code).toEqual({ "0": 8, "2": 1 });
    expect(doc.header.driver.version).toBe("0.21.0");
  });

  it("keeps parallel calls whole: every line parses and restores to what each caller saw", async () => {
    await using work = await tmpDir();
    const out = path.join(work.path, "rec");
    writeFileSync(
      path.join(work.path, "par.py"),
      String.raw`
import base64, json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
tools = ["get_desktop_state", "list_windows", "get_window_state", "get_screen_size"] * 3
def call(t):
  p = subprocess.run(["cua-driver", "call", t, "{}"], capture_output=True)
  return {"tool": t, "stdout": base64.b64encode(p.stdout).decode()}
with ThreadPoolExecutor(12) as ex:
  seen = list(ex.map(call, tools))
json.dump(seen, open(sys.argv[1] + "/seen.json", "w"))
`,
    );
    const r = await runCliInProcess(["record", "--out", out, "--driver", fake, "--", "python3", path.join(work.path, "par.py"), work.path]);
    expect(r.exitCode).toBe(0);
    const seen = JSON.parse(readFileSync(path.join(work.path, "seen.json"), "utf8")) as Array<{ tool: string; stdout: string }>;
    const lines = readFileSync(path.join(out, "cassette.jsonl"), "utf8").split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const cassette = await readCassette(out);
    const harness = cassette.events.filter((e): e is CliEvent => e.kind === "cli" && e.origin === "harness");
    expect(harness).toHaveLength(12);
    const recorded = harness.map((e) => `${e.argv[1]}:${restoreBytes(cassette, e, "stdout").toString("base64")}`).sort();
    expect(recorded).toEqual(seen.map((s) => `${s.tool}:${s.stdout}`).sort());
  });

  it("loses at most the event in flight when record is SIGKILLed", async () => {
    await using work = await tmpDir();
    const out = path.join(work.path, "rec");
    writeFileSync(
      path.join(work.path, "loop.py"),
      String.raw`
import subprocess, sys
done = 0
for i in range(200):
  p = subprocess.run(["cua-driver", "call", "get_desktop_state", "{}"], capture_output=True)
  if p.returncode != 0: break
  done += 1
  open(sys.argv[1] + "/done", "w").write(str(done))
`,
    );
    const rec = execa(
      process.execPath,
      [path.join(repoRoot, "bin/cua-contract.js"), "record", "--out", out, "--driver", fake, "--", "python3", path.join(work.path, "loop.py"), work.path],
      {
        reject: false,
      },
    );
    const donePath = path.join(work.path, "done");
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        if (Number(readFileSync(donePath, "utf8")) >= 3) break;
      } catch {
        // not yet
      }
    }
    rec.kill("SIGKILL");
    await rec;
    await new Promise((r) => setTimeout(r, 500)); // the orphaned harness notices and stops
    const completed = Number(readFileSync(donePath, "utf8"));
    expect(completed).toBeGreaterThanOrEqual(3);
    const inspect = await runCliInProcess(["inspect", out, "--json"]);
    expect(inspect.exitCode).toBe(0);
    const doc = JSON.parse(String(inspect.stdout));
    // Every call the harness saw complete was on disk before its answer was sent.
    expect(doc.by_tool.get_desktop_state).toBeGreaterThanOrEqual(completed);
    expect(doc.frames.missing).toEqual([]);
  });
});

describe("record: bad input", () => {
  it("names the problem, the field and the fix, exit 2", async () => {
    await using work = await tmpDir();
    const out = path.join(work.path, "rec");
    const cases: Array<[string[], string]> = [
      [
        ["record", "--out", out, "--driver", fake],
        "cua-contract: --: no harness command after `--`. Run it as `cua-contract record --out DIR -- CMD [ARGS…]`.",
      ],
      [
        ["record", "--out", out, "--driver", fake, "python3", "h.py"],
        'cua-contract: --: the harness command must follow `--` (got "python3 h.py" before it). Run it as `cua-contract record --out DIR -- CMD [ARGS…]`.',
      ],
      [
        ["record", "--out", out, "--driver", path.join(work.path, "nope"), "--", "true"],
        `cua-contract: --driver: driver ${path.join(work.path, "nope")} does not exist. Pass --driver with the path of an executable cua-driver.`,
      ],
      [
        ["record", "--out", out, "--driver", path.join(repoRoot, "package.json"), "--", "true"],
        `cua-contract: --driver: driver ${path.join(repoRoot, "package.json")} is not an executable file. Make it executable (chmod +x ${path.join(repoRoot, "package.json")}) or pass --driver with another path.`,
      ],
      [
        ["record", "--out", out, "--driver", fake, "--redact", "(", "--", "true"],
        expect.stringContaining('cua-contract: --redact "(" is not a valid regular expression') as never,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCliInProcess(args);
      expect([args, r.exitCode, r.stderr]).toEqual([args, 2, message]);
    }
    const unknown = await runCliInProcess(["record", "--out", out, "--bogus", "--", "true"]);
    expect([unknown.exitCode, String(unknown.stderr).split("\n")[0]]).toEqual([2, "cua-contract: Unknown option --bogus."]);
    const ok = await runCliInProcess(["record", "--out", out, "--driver", fake, "--", "true"]);
    expect(ok.exitCode).toBe(0);
    const again = await runCliInProcess(["record", "--out", out, "--driver", fake, "--", "true"]);
    expect([again.exitCode, again.stderr]).toEqual([
      2,
      `cua-contract: ${path.join(out, "cassette.jsonl")}: --out: the output directory already holds a cassette. Pass --append to add to it, --force to replace it, or choose another --out directory.`,
    ]);
    expect((await runCliInProcess(["record", "--out", out, "--append", "--driver", fake, "--", "true"])).exitCode).toBe(0);
    expect((await readCassette(out)).events).toHaveLength(4);
    expect((await runCliInProcess(["record", "--out", out, "--force", "--driver", fake, "--", "true"])).exitCode).toBe(0);
    expect((await readCassette(out)).events).toHaveLength(2);
  });
});
