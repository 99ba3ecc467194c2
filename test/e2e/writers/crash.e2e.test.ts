// Crash, concurrency and full-disk trials of the cassette writers (docs/cassettes.md, "Writing
// safely"). Each writer is killed at random and at its commit point (CUA_CONTRACT_KILL_AT), pairs of
// writers run at once on one cassette, and a small tmpfs fills mid-write; after each, the cassette
// is the old one or the complete new one, `inspect` agrees, and no answered call is lost.
// `npm run test:writers` (CUA_CONTRACT_CRASH_TRIALS=20, which .ci/run runs) runs the full count
// (about 3 minutes of CPU); without the variable (this file run alone) 1 trial of each (test/tiers.ts:
// not part of `npm test`). The full-disk and read-only trials need root (to mount a tmpfs); without
// it they are skipped with a note.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCassetteSync } from "#src/cassette/reader.js";
import { pruneCassette } from "#src/cassette/prune.js";
import { mergeCassettes } from "#src/cassette/merge.js";
import { openCassetteWriter, type CassetteEventInput } from "#src/cassette/writer.js";
import { readReplayLogs } from "#src/cassette/read-replay-logs.js";
import { writeGrownCassette } from "#src/recorder/record-missing/write-grown.js";
import { writeOutputFile } from "#src/report/write-output.js";
import { runCliInProcess } from "../../helpers/run-cli-in-process.js";
import { tmpDir } from "../../helpers/tmp-dir.js";
import { FRAME, SOURCE, usedLog } from "./fixture.js";
import { bytesOf, DRIVER, inspectEvents, leftovers, spawnCli } from "./trial.js";

const TRIALS = Number(process.env.CUA_CONTRACT_CRASH_TRIALS ?? 1);
const EVENTS = 4000;

let root: { path: string } & AsyncDisposable;
let base: string;
let log: string;
beforeAll(async () => {
  root = await tmpDir();
  base = bigCassette(path.join(root.path, "base"));
  log = usedLog(
    path.join(root.path, "used.jsonl"),
    Array.from({ length: EVENTS / 2 }, (_, i) => 2 * i + 1),
  );
});
afterAll(async () => {
  await root[Symbol.asyncDispose]();
});

/** A CLI cassette of EVENTS calls (about 4 MB) and one frame, seq 0…EVENTS-1. */
function bigCassette(dir: string): string {
  mkdirSync(path.join(dir, "frames"), { recursive: true });
  cpSync(path.join(SOURCE, FRAME), path.join(dir, FRAME));
  const header = readFileSync(path.join(SOURCE, "cassette.jsonl"), "utf8").split("\n")[0]!;
  const stdout = `{\n  "height": 800,\n  "pad": "${"x".repeat(900)}",\n  "width": 1280\n}\n`;
  const lines = [header];
  for (let seq = 0; seq < EVENTS; seq++) {
    const files = seq === 2 ? { files: { "--screenshot-out-file": { ref: FRAME, path: "/tmp/d.png" } } } : {};
    const argv = seq === 2 ? ["call", "get_desktop_state", "--screenshot-out-file", "/tmp/d.png"] : ["call", "get_screen_size"];
    lines.push(JSON.stringify({ seq, t_ms: seq, duration_ms: 1, kind: "cli", argv, stdout, stderr: "", exit_code: 0, ...files }));
  }
  writeFileSync(path.join(dir, "cassette.jsonl"), `${lines.join("\n")}\n`);
  return dir;
}

let copies = 0;
const copyOf = (dir: string) => {
  const to = path.join(root.path, `copy${copies++}`);
  cpSync(dir, to, { recursive: true });
  return to;
};

interface Writer {
  name: string;
  /** The CLI arguments for a run on `dir` (a copy of the base); `out` when the writer writes elsewhere. */
  args: (dir: string, out: string) => string[];
  /** Where the result lands: the input (in place) or `out`. */
  target: (dir: string, out: string) => string;
}

const WRITERS: Writer[] = [
  { name: "cassette prune (in place)", args: (d) => ["cassette", "prune", d, "--log", log], target: (d) => d },
  { name: "cassette prune --out", args: (d, o) => ["cassette", "prune", d, "--log", log, "--out", o], target: (_d, o) => o },
  { name: "cassette merge --out", args: (d, o) => ["cassette", "merge", d, base, "--out", o], target: (_d, o) => o },
];

describe.each(WRITERS)("$name killed", (w) => {
  let expected: Buffer;
  let took = 0;
  beforeAll(async () => {
    const dir = copyOf(base);
    const out = path.join(root.path, `out${copies++}`);
    const started = Date.now();
    const r = await spawnCli(w.args(dir, out));
    took = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    expected = bytesOf(w.target(dir, out))!;
  });

  const check = async (o: { dir: string; out: string; old: Buffer | undefined }) => {
    const target = w.target(o.dir, o.out);
    const now = bytesOf(target);
    // the old cassette (or none, for an output) or the whole new one: never a part
    const which = now === undefined ? "none" : now.equals(expected) ? "new" : o.old && now.equals(o.old) ? "old" : "torn";
    expect(which).not.toBe("torn");
    if (now !== undefined) await inspectEvents(target);
    // the next run finishes the job (a stale lock and temp files of the killed one are cleaned)
    if (which !== "new") {
      const again = await runCliInProcess(w.args(o.dir, o.out));
      expect(again.exitCode, again.stderr).toBe(0);
      expect(bytesOf(target)!.equals(expected)).toBe(true);
    } else if (target === o.dir) {
      // in place: a prune again over the pruned one is fine too, and cleans up
      await runCliInProcess(w.args(o.dir, o.out));
    }
    expect(leftovers(target)).toEqual([]);
    return which;
  };

  it(`at random (${TRIALS} trials)`, { timeout: 120_000 }, async () => {
    const seen = new Set<string>();
    for (let i = 0; i < TRIALS; i++) {
      const dir = copyOf(base);
      const out = path.join(root.path, `out${copies++}`);
      const old = w.target(dir, out) === dir ? bytesOf(dir) : undefined;
      // spread over start-up and the write (Node's start-up is most of a run's first half)
      const r = await spawnCli(w.args(dir, out), { killAfterMs: Math.round(((i + 0.5) / TRIALS) * took * 1.1) });
      expect(r.code === 0 || r.signal === "SIGKILL", r.stderr).toBe(true);
      seen.add(await check({ dir, out, old }));
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  for (const point of ["before-rename", "after-rename"] as const) {
    it(`at its commit point: ${point} (${TRIALS} trials)`, { timeout: 120_000 }, async () => {
      for (let i = 0; i < TRIALS; i++) {
        const dir = copyOf(base);
        const out = path.join(root.path, `out${copies++}`);
        const old = w.target(dir, out) === dir ? bytesOf(dir) : undefined;
        const r = await spawnCli(w.args(dir, out), { env: { CUA_CONTRACT_KILL_AT: point, CUA_CONTRACT_KILL_AT_FILE: "cassette.jsonl" } });
        expect(r.signal, r.stderr).toBe("SIGKILL");
        expect(await check({ dir, out, old })).toBe(point === "before-rename" ? (old ? "old" : "none") : "new");
      }
    });
  }
});

/** A harness for `record --append`: K calls, each answered one marked in `answered` after its answer came back. */
function appendArgs(dir: string, answered: string, calls: number): string[] {
  const script = `for i in $(seq 1 ${calls}); do cua-driver call get_screen_size '{}' >/dev/null && echo $i >> '${answered}'; done`;
  return ["record", "--out", dir, "--append", "--driver", DRIVER, "--driver-source", "synthetic", "--", "sh", "-c", script];
}
const answeredCalls = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).length : 0);
const isHarnessCall = (e: { origin?: string | undefined; kind: string }) => e.origin !== "recorder" && e.kind === "cli";
const harnessCalls = (dir: string) => readCassetteSync(dir, { frames: "skip" }).events.filter(isHarnessCall).length;

describe("record --append killed", () => {
  it(`at random: no answered call lost, the cassette reads clean after the next append (${TRIALS} trials)`, { timeout: 180_000 }, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const dir = copyOf(SOURCE);
      const before = harnessCalls(dir);
      const answered = path.join(root.path, `answered${copies++}`);
      const r = await spawnCli(appendArgs(dir, answered, 6), { killAfterMs: 400 + i * 150 });
      expect(r.code === 0 || r.signal === "SIGKILL", r.stderr).toBe(true);
      // every call the harness got an answer to is in the cassette (a torn last line at most is dropped)
      expect(harnessCalls(dir) - before).toBeGreaterThanOrEqual(answeredCalls(answered));
      // the next append takes over the dead one's lock, cuts a torn line, and adds its own
      const next = path.join(root.path, `answered${copies++}`);
      const again = await spawnCli(appendArgs(dir, next, 1));
      expect(again.code, again.stderr).toBe(0);
      expect(await inspectEvents(dir)).toBeGreaterThan(8);
      expect(leftovers(dir)).toEqual([]);
    }
  });
});

describe("record --force over a cassette, killed at its commit", () => {
  for (const point of ["before-rename", "after-rename"] as const) {
    it(`${point}: the old cassette ${point === "before-rename" ? "stays as it was" : "is replaced by the whole new one"}`, { timeout: 60_000 }, async () => {
      const dir = copyOf(SOURCE);
      const old = bytesOf(dir)!;
      const script = "cua-driver call get_screen_size '{}' >/dev/null";
      const args = ["record", "--out", dir, "--force", "--no-probe", "--driver", DRIVER, "--driver-source", "synthetic", "--", "sh", "-c", script];
      const r = await spawnCli(args, { env: { CUA_CONTRACT_KILL_AT: point, CUA_CONTRACT_KILL_AT_FILE: "cassette.jsonl" } });
      expect(r.signal, r.stderr).toBe("SIGKILL");
      const now = bytesOf(dir)!;
      if (point === "before-rename") expect(now.equals(old)).toBe(true);
      else {
        expect(now.equals(old)).toBe(false);
        // the new recording: --version, manifest and the harness's one call
        expect(await inspectEvents(dir)).toBe(3);
      }
      // every frame the cassette in place names is there (the old one's were not removed before the rename)
      expect(() => readCassetteSync(dir, { frames: "verify" })).not.toThrow();
    });
  }
});

describe("two writers at once on one cassette", () => {
  const pairs: [string, (dir: string, tag: string) => string[]][] = [
    ["record --append", (d, tag) => appendArgs(d, path.join(root.path, `answered-${tag}`), 3)],
    ["cassette prune", (d) => ["cassette", "prune", d, "--log", usedLog(path.join(root.path, `log${copies++}`), [1, 2, 3])]],
    ["cassette sign", (d) => ["cassette", "sign", d]],
  ];
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i; j < pairs.length; j++) {
      const [a, argsA] = pairs[i]!;
      const [b, argsB] = pairs[j]!;
      it(`${a} and ${b}: one waits for the other; nothing lost, no duplicate seq`, { timeout: 60_000 }, async () => {
        const dir = copyOf(SOURCE);
        const tagA = `a${copies++}`;
        const tagB = `b${copies++}`;
        const [ra, rb] = await Promise.all([spawnCli(argsA(dir, tagA)), spawnCli(argsB(dir, tagB))]);
        expect(ra.code, ra.stderr).toBe(0);
        expect(rb.code, rb.stderr).toBe(0);
        await inspectEvents(dir); // exit 0, no warning, every seq unique (the reader refuses duplicates)
        const cassette = readCassetteSync(dir, { frames: "verify" });
        // each append's answered calls are there, unless a prune that ran after it dropped them (it keeps seq 1–3 only)
        // the appended calls are `get_screen_size '{}'` (the fixture's own has no argument)
        const appended = cassette.events.filter((e) => e.kind === "cli" && e.argv.length === 3 && e.argv[2] === "{}").length;
        const answered = [tagA, tagB].reduce((n, t) => n + answeredCalls(path.join(root.path, `answered-${t}`)), 0);
        const pruned = a === "cassette prune" || b === "cassette prune";
        if (!pruned) expect(appended).toBe(answered);
        else expect(appended === answered || appended === 0).toBe(true);
        expect(leftovers(dir)).toEqual([]);
      });
    }
  }

  it("merge twice into one --out at once: one writes it, the other is refused (exit 2); the output is whole", { timeout: 60_000 }, async () => {
    const out = path.join(root.path, `merged${copies++}`);
    const [r1, r2] = await Promise.all([
      spawnCli(["cassette", "merge", SOURCE, SOURCE, "--out", out]),
      spawnCli(["cassette", "merge", SOURCE, SOURCE, "--out", out]),
    ]);
    expect([r1.code, r2.code].sort()).toEqual([0, 2]);
    expect([r1.stderr, r2.stderr].join("")).toMatch(/already holds a cassette/);
    expect(await inspectEvents(out)).toBe(16);
  });
});

// ---- full disk and read-only folder: a tmpfs of our own (root only) ----

function tryMount(dir: string, size: string): boolean {
  if (process.getuid?.() !== 0) return false;
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const unmount = (dir: string) => execFileSync("umount", ["-l", dir], { stdio: "ignore" });

/** Fills the file system holding `dir` but `free` bytes (a filler file); returns the filler's path. */
function fill(dir: string, free: number): string {
  const filler = path.join(dir, "filler");
  rmSync(filler, { force: true });
  const st = execFileSync("df", ["-B1", "--output=avail", dir], { encoding: "utf8" }).trim().split("\n")[1]!;
  const avail = Number(st);
  writeFileSync(filler, Buffer.alloc(Math.max(0, avail - free)));
  return filler;
}

describe("a full disk", () => {
  let mnt: string;
  let mounted = false;
  beforeAll(() => {
    mnt = path.join(root.path, "tmpfs");
    mounted = tryMount(mnt, "24m");
    if (!mounted) console.warn("full-disk trials skipped: they mount a tmpfs, which needs root");
  });
  afterAll(() => {
    if (mounted) unmount(mnt);
  });

  it("prune in place and merge --out fail with exit 2 naming the file; the cassette is as it was; no temp file stays", () => {
    if (!mounted) return;
    const dir = path.join(mnt, `c${copies++}`);
    cpSync(base, dir, { recursive: true });
    const old = bytesOf(dir)!;
    const filler = fill(mnt, 1 << 20); // the pruned copy needs about 2 MB
    const logs = readReplayLogs([log]);
    let error: unknown;
    try {
      pruneCassette({ dir, logs });
    } catch (e) {
      error = e;
    }
    expect(String(error)).toMatch(/cannot write .*cassette\.jsonl: no space left on the device/);
    expect((error as { exitCode?: number }).exitCode).toBe(2);
    expect(bytesOf(dir)!.equals(old)).toBe(true);
    expect(leftovers(dir)).toEqual([]);
    const out = path.join(mnt, `m${copies++}`);
    expect(() => mergeCassettes({ a: dir, b: dir, out })).toThrow(/no space left on the device/);
    expect(existsSync(path.join(out, "cassette.jsonl"))).toBe(false);
    expect(leftovers(out)).toEqual([]);
    rmSync(filler);
    // with room again, both succeed
    pruneCassette({ dir, logs });
    expect(readCassetteSync(dir, { frames: "verify" }).events.length).toBe(EVENTS / 2);
  });

  it("appending on a disk that fills then frees: the failed event is cut, later ones are whole lines", () => {
    if (!mounted) return;
    const dir = path.join(mnt, `a${copies++}`);
    cpSync(SOURCE, dir, { recursive: true });
    const filler = fill(mnt, 64 << 10);
    const writer = openCassetteWriter({ dir, header: readCassetteSync(dir).header, append: true });
    const event: CassetteEventInput = {
      kind: "cli",
      argv: ["call", "get_screen_size"],
      stdout: "y".repeat(3000),
      stderr: "",
      exit_code: 0,
      t_ms: 1,
      duration_ms: 1,
    };
    let written = 0;
    let failure: unknown;
    for (let i = 0; i < 200 && !failure; i++) {
      try {
        writer.append(event);
        written++;
      } catch (e) {
        failure = e;
      }
    }
    expect(String(failure)).toMatch(/cannot write .*cassette\.jsonl: no space left on the device/);
    rmSync(filler);
    writer.append(event);
    writer.close();
    const cassette = readCassetteSync(dir);
    expect(cassette.warnings).toEqual([]);
    expect(cassette.events.length).toBe(8 + written + 1);
  });

  it("record-missing's grown cassette on a full disk: exit 2 naming it, the old one as it was (was: renamed over it short, exit 0)", () => {
    if (!mounted) return;
    const dir = path.join(mnt, `g${copies++}`);
    cpSync(base, dir, { recursive: true });
    const old = bytesOf(dir)!;
    const cassette = readCassetteSync(dir, { frames: "skip" });
    const added = {
      ...cassette.events[1]!,
      seq: EVENTS,
      added: { by: "record-missing" as const, at: "2026-05-01T00:00:00.000Z", source: "synthetic" as const },
    };
    const plan = { order: [...cassette.events.map((_, i) => ({ old: i })), { added }], added: [added], dropped: [] };
    const filler = fill(mnt, 1 << 20);
    try {
      expect(() =>
        writeGrownCassette({
          cassette,
          plan,
          frames: [],
          addition: { by: "record-missing", at: "2026-05-01T00:00:00.000Z", driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic" } },
        }),
      ).toThrow(/cannot write .*cassette\.jsonl: no space left on the device/);
    } finally {
      rmSync(filler);
    }
    expect(bytesOf(dir)!.equals(old)).toBe(true);
    expect(leftovers(dir)).toEqual([]);
  });

  it("a report (--out, --junit, --json-out) on a full disk: exit 2 naming it; the earlier one stays whole", () => {
    if (!mounted) return;
    const file = path.join(mnt, `report${copies++}.html`);
    writeOutputFile({ file, flag: "--out", text: "<p>earlier</p>\n" });
    const filler = fill(mnt, 8 << 10);
    try {
      expect(() => writeOutputFile({ file, flag: "--out", text: "x".repeat(1 << 20) })).toThrow(/cannot write .*report\d+\.html: no space left on the device/);
    } finally {
      rmSync(filler);
    }
    expect(readFileSync(file, "utf8")).toBe("<p>earlier</p>\n");
    expect(readdirSync(mnt).filter((n) => n.endsWith(".cua-tmp"))).toEqual([]);
  });

  it("record-missing refuses a read-only cassette folder before it runs the harness", { timeout: 60_000 }, async () => {
    if (!mounted) return;
    const ro = path.join(root.path, "ro");
    if (!tryMount(ro, "4m")) return;
    try {
      cpSync(SOURCE, path.join(ro, "c"), { recursive: true });
      execFileSync("mount", ["-o", "remount,ro", ro]);
      const marker = path.join(root.path, `ran${copies++}`);
      const r = await runCliInProcess([
        "replay",
        path.join(ro, "c"),
        "--record-missing",
        "--allow-in-ci",
        "--driver",
        DRIVER,
        "--driver-source",
        "synthetic",
        "--",
        "sh",
        "-c",
        `touch ${marker}`,
      ]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/cannot write .*\.cua-contract\.lock: read-only file system/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      unmount(ro);
    }
  });
});
