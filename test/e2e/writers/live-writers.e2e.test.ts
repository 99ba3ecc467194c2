// Crash and concurrency trials of the two writers that need a live driver (docs/cassettes.md,
// "Writing safely"): `verify --update --force` over an earlier update (the published runtime in
// process, no desktop: a flow of read-only calls) and `replay --record-missing` (the fake driver of
// test/fixtures/drivers). Each is killed at random and at its commit point, and run at once with
// every other writer of a cassette; after each, the cassette is the old one or the complete new one,
// `inspect` agrees, no answered call is lost, and no temp file or live lock is left (a killed run's
// are taken over by the next run). `npm run test:writers` (CUA_CONTRACT_CRASH_TRIALS=20, which .ci/run
// runs) runs the full count and every pair; without the variable (this file run alone), 1 trial of
// each and the pairs of the two with each other (test/tiers.ts: not part of `npm test`).
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCassetteSync } from "#src/cassette/reader.js";
import { runCliInProcess } from "../../helpers/run-cli-in-process.js";
import { tmpDir } from "../../helpers/tmp-dir.js";
import { linesOf, SOURCE, usedLog } from "./fixture.js";
import { bytesOf, DRIVER, inspectEvents, leftovers, spawnCli } from "./trial.js";

const TRIALS = Number(process.env.CUA_CONTRACT_CRASH_TRIALS ?? 1);
/** The calls a record-missing harness makes (none of them in the cassette: each is recorded live). */
const CALLS = 3;
/** The events of the read-only flow (and of every update of it). */
const FLOW_EVENTS = 6;
const KILL_AT = (point: string) => ({ CUA_CONTRACT_KILL_AT: point, CUA_CONTRACT_KILL_AT_FILE: "cassette.jsonl" });
// no display: verify sends read-only calls only, and the runtime answers them without one
const NO_DISPLAY = { DISPLAY: "" };

let root: { path: string } & AsyncDisposable;
let flow: string;
let earlier: string;
let n = 0;
const next = (stem: string) => path.join(root.path, `${stem}${n++}`);
const copyOf = (dir: string) => {
  const to = next("copy");
  cpSync(dir, to, { recursive: true });
  return to;
};

beforeAll(async () => {
  root = await tmpDir();
  // the fixture's flow without its two mutations (click, press_key): verify sends every call of it without a desktop
  flow = copyOf(SOURCE);
  const keep = linesOf(flow).filter((l, i) => i === 0 || ![3, 4].includes((JSON.parse(l) as { seq: number }).seq));
  writeFileSync(path.join(flow, "cassette.jsonl"), `${keep.join("\n")}\n`);
  earlier = next("earlier");
  const r = await spawnCli(verifyArgs(earlier), { env: NO_DISPLAY });
  expect([0, 1], r.stderr).toContain(r.code);
  expect(isCompleteUpdate(earlier)).toBe(true);
}, 60_000);
afterAll(async () => {
  await root[Symbol.asyncDispose]();
});

/** `verify --update DIR --force`: the candidate's answers to the read-only flow, as a cassette in DIR. */
const verifyArgs = (dir: string) => ["verify", flow, "--driver", "sdk:0.21.0", "--update", dir, "--force"];

/** A whole update of the flow: every call, probe.json as the header pins it. */
function isCompleteUpdate(dir: string): boolean {
  const c = readCassetteSync(dir, { frames: "verify" });
  const probe = path.join(dir, "probe.json");
  return (
    c.events.length === FLOW_EVENTS &&
    c.warnings.length === 0 &&
    existsSync(probe) &&
    createHash("sha256").update(readFileSync(probe)).digest("hex") === c.header.driver.probe_sha256 &&
    (c.header.notes ?? []).some((note) => note.startsWith("re-recorded by `cua-contract verify --update`"))
  );
}

/** `replay --record-missing` with a harness of CALLS calls the cassette lacks (window ids from `first`), each marked in `answered` once answered. */
function recordMissingArgs(dir: string, answered: string, first = 100): string[] {
  const script = `for i in $(seq ${first} ${first + CALLS - 1}); do cua-driver call get_window_state "{\\"pid\\":1,\\"window_id\\":$i}" >/dev/null && echo $i >> '${answered}'; done`;
  return ["replay", dir, "--record-missing", "--allow-in-ci", "--driver", DRIVER, "--driver-source", "synthetic", "--", "sh", "-c", script];
}
const answeredCalls = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).length : 0);
const addedCalls = (dir: string) => readCassetteSync(dir, { frames: "skip" }).events.filter((e) => e.added !== undefined).length;

/** Random kill times spread over a run of `took` ms (start-up included), one per trial. */
const killTimes = (took: number) => Array.from({ length: TRIALS }, (_, i) => Math.round(((i + 0.5) / TRIALS) * took * 1.1));

/** What the random kills left (old or new), printed so a full run shows that both happen. */
function tally(what: string, seen: readonly string[]): void {
  expect(seen).toHaveLength(TRIALS);
  const count = (w: string) => seen.filter((s) => s === w).length;
  console.info(`${what}: ${count("old")} left the old cassette, ${count("new")} the whole new one (of ${TRIALS})`);
}

describe("verify --update --force over an earlier update, killed", () => {
  let took = 0;
  beforeAll(async () => {
    const started = Date.now();
    const r = await spawnCli(verifyArgs(copyOf(earlier)), { env: NO_DISPLAY });
    took = Date.now() - started;
    expect([0, 1], r.stderr).toContain(r.code);
  }, 60_000);

  /** Old (byte for byte), or the whole new update; then a run that is not killed finishes the job and cleans up. */
  const check = async (dir: string, old: Buffer) => {
    const now = bytesOf(dir)!;
    const which = now.equals(old) ? "old" : isCompleteUpdate(dir) ? "new" : "torn";
    expect(which).not.toBe("torn");
    expect(await inspectEvents(dir)).toBe(FLOW_EVENTS);
    const again = await spawnCli(verifyArgs(dir), { env: NO_DISPLAY });
    expect([0, 1], again.stderr).toContain(again.code);
    expect(isCompleteUpdate(dir)).toBe(true);
    expect(leftovers(dir)).toEqual([]);
    return which;
  };

  it(`at random (${TRIALS} trials)`, { timeout: 60_000 + TRIALS * 30_000 }, async () => {
    const seen: string[] = [];
    for (const at of killTimes(took)) {
      const dir = copyOf(earlier);
      const old = bytesOf(dir)!;
      const r = await spawnCli(verifyArgs(dir), { killAfterMs: at, env: NO_DISPLAY });
      expect(r.code === 0 || r.code === 1 || r.signal === "SIGKILL", r.stderr).toBe(true);
      seen.push(await check(dir, old));
    }
    tally("verify --update killed at random", seen);
  });

  for (const point of ["before-rename", "after-rename"] as const) {
    it(`at its commit point: ${point} (${TRIALS} trials)`, { timeout: 60_000 + TRIALS * 30_000 }, async () => {
      for (let i = 0; i < TRIALS; i++) {
        const dir = copyOf(earlier);
        const old = bytesOf(dir)!;
        const r = await spawnCli(verifyArgs(dir), { env: { ...NO_DISPLAY, ...KILL_AT(point) } });
        expect(r.signal, r.stderr).toBe("SIGKILL");
        // before the rename: leftovers of the killed run until the next one cleans them
        expect(await check(dir, old)).toBe(point === "before-rename" ? "old" : "new");
      }
    });
  }
});

describe("replay --record-missing killed", () => {
  let took = 0;
  beforeAll(async () => {
    const started = Date.now();
    const r = await spawnCli(recordMissingArgs(copyOf(SOURCE), next("answered")));
    took = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  /** Old (byte for byte), or the whole grown one with every answered call; the next run grows it (or finds nothing to add) and cleans up. */
  const check = async (dir: string, old: Buffer, answered: string) => {
    const now = bytesOf(dir)!;
    const which = now.equals(old) ? "old" : "new";
    if (which === "new") {
      expect(await inspectEvents(dir)).toBe(8 + CALLS);
      expect(addedCalls(dir)).toBe(CALLS);
      expect(addedCalls(dir)).toBeGreaterThanOrEqual(answeredCalls(answered));
    } else expect(await inspectEvents(dir)).toBe(8);
    const again = await spawnCli(recordMissingArgs(dir, next("answered")));
    expect(again.code, again.stderr).toBe(0);
    expect(await inspectEvents(dir)).toBe(8 + CALLS);
    expect(addedCalls(dir)).toBe(CALLS);
    expect(leftovers(dir)).toEqual([]);
    return which;
  };

  it(`at random (${TRIALS} trials)`, { timeout: 60_000 + TRIALS * 30_000 }, async () => {
    const seen: string[] = [];
    for (const at of killTimes(took)) {
      const dir = copyOf(SOURCE);
      const old = bytesOf(dir)!;
      const answered = next("answered");
      const r = await spawnCli(recordMissingArgs(dir, answered), { killAfterMs: at });
      expect(r.code === 0 || r.signal === "SIGKILL", r.stderr).toBe(true);
      seen.push(await check(dir, old, answered));
    }
    tally("record-missing killed at random", seen);
  });

  for (const point of ["before-rename", "after-rename"] as const) {
    it(`at its commit point: ${point} (${TRIALS} trials)`, { timeout: 60_000 + TRIALS * 30_000 }, async () => {
      for (let i = 0; i < TRIALS; i++) {
        const dir = copyOf(SOURCE);
        const old = bytesOf(dir)!;
        const answered = next("answered");
        const r = await spawnCli(recordMissingArgs(dir, answered), { env: KILL_AT(point) });
        expect(r.signal, r.stderr).toBe("SIGKILL");
        expect(await check(dir, old, answered)).toBe(point === "before-rename" ? "old" : "new");
      }
    });
  }
});

// ---- pairs: each of the two with every writer of a cassette, on one cassette at once ----

interface Run {
  name: string;
  /** Starts the run on `dir`; resolves when it has ended. */
  run: (dir: string) => Promise<{ code: number | null; stderr: string }>;
  /** Exit codes of a finished run (verify exits 1 when the candidate answers differently, as it does without a desktop). */
  ok: number[];
  /** The calls it got answered and must find in the cassette, unless a later writer replaced or pruned them. */
  answered?: { count: () => number; inCassette: (dir: string) => number };
  /** It replaces or prunes calls of the cassette (on purpose). */
  drops?: boolean;
}

const LOCKED = /\.cua-contract\.lock: the cassette .* is locked by process \d+ .*waited/;

function writers(): Run[] {
  const append = next("answered");
  const missing = next("answered");
  const missing2 = next("answered");
  const isAppended = (e: { kind: string; argv?: string[] }) => e.kind === "cli" && e.argv?.length === 3 && e.argv[2] === "{}";
  const getWindowState = (dir: string, first: number) =>
    readCassetteSync(dir, { frames: "skip" }).events.filter((e) => e.added && e.kind === "cli" && new RegExp(`"window_id":${first}`).test(e.argv.join(" ")))
      .length;
  return [
    {
      name: "replay --record-missing",
      run: (d) => spawnCli(recordMissingArgs(d, missing, 100)),
      ok: [0],
      answered: { count: () => answeredCalls(missing), inCassette: (d) => [100, 101, 102].reduce((k, id) => k + getWindowState(d, id), 0) },
    },
    {
      name: "verify --update --force",
      run: (d) => spawnCli(verifyArgs(d), { env: NO_DISPLAY }),
      ok: [0, 1],
      drops: true,
    },
    {
      name: "record --append",
      run: (d) => {
        const script = `for i in 1 2 3; do cua-driver call get_screen_size '{}' >/dev/null && echo $i >> '${append}'; done`;
        return spawnCli(["record", "--out", d, "--append", "--driver", DRIVER, "--driver-source", "synthetic", "--", "sh", "-c", script]);
      },
      ok: [0],
      answered: { count: () => answeredCalls(append), inCassette: (d) => readCassetteSync(d, { frames: "skip" }).events.filter(isAppended).length },
    },
    { name: "cassette prune (in place)", run: (d) => spawnCli(["cassette", "prune", d, "--log", usedLog(next("log"), [1, 2])]), ok: [0], drops: true },
    { name: "cassette sign", run: (d) => spawnCli(["cassette", "sign", d]), ok: [0] },
    {
      name: "cassette merge --out (reads it)",
      run: async (d) => {
        const out = next("merged");
        const r = await spawnCli(["cassette", "merge", d, SOURCE, "--out", out]);
        // what it wrote is a whole cassette, or nothing
        if (existsSync(path.join(out, "cassette.jsonl"))) expect(await inspectEvents(out)).toBeGreaterThan(8);
        else expect(leftovers(out)).toEqual([]);
        return r;
      },
      // exit 2 when the cassette was replaced while it read it (nothing written)
      ok: [0, 2],
    },
    {
      name: "a second replay --record-missing",
      run: (d) => spawnCli(recordMissingArgs(d, missing2, 200)),
      ok: [0],
      answered: { count: () => answeredCalls(missing2), inCassette: (d) => [200, 201, 202].reduce((k, id) => k + getWindowState(d, id), 0) },
    },
    { name: "a second verify --update --force", run: (d) => spawnCli(verifyArgs(d), { env: NO_DISPLAY }), ok: [0, 1], drops: true },
  ];
}

// The pairs are independent (each on its own copy), so they run side by side: most of each is waiting on a lock.
describe.concurrent("verify --update and record-missing at once with every other writer, on one cassette", () => {
  const all = [
    "replay --record-missing",
    "verify --update --force",
    "record --append",
    "cassette prune (in place)",
    "cassette sign",
    "cassette merge --out (reads it)",
    "a second replay --record-missing",
    "a second verify --update --force",
  ];
  const pairs: [string, string][] = [];
  for (const a of ["replay --record-missing", "verify --update --force"])
    for (const b of all) {
      // "a second X" runs with X only; a pair is run once
      if (a === b || (b.startsWith("a second ") && b !== `a second ${a}`) || pairs.some(([x, y]) => x === b && y === a)) continue;
      pairs.push([a, b]);
    }

  // without CUA_CONTRACT_CRASH_TRIALS, the two live writers with each other (and each with a second of
  // itself); the pairs with the offline writers, whose own pairs crash.e2e.test.ts runs, with it
  const live = (name: string) => /^(a second )?(replay --record-missing|verify --update --force)$/.test(name);
  const chosen = process.env.CUA_CONTRACT_CRASH_TRIALS === undefined ? pairs.filter(([a, b]) => live(a) && live(b)) : pairs;
  expect(chosen.length).toBeGreaterThanOrEqual(3);

  for (const [a, b] of chosen) {
    it(`${a} and ${b}: one waits for the other; the cassette reads clean, no answered call lost, nothing left over`, { timeout: 90_000 }, async () => {
      const runs = writers();
      expect(runs.map((w) => w.name)).toEqual(all);
      const wa = runs.find((w) => w.name === a)!;
      const wb = runs.find((w) => w.name === b)!;
      const dir = copyOf(SOURCE);
      const [ra, rb] = await Promise.all([wa.run(dir), wb.run(dir)]);
      for (const [w, r] of [
        [wa, ra],
        [wb, rb],
      ] as const) {
        // a writer that waited longer than the lock's bound fails naming the holder; that is allowed, nothing else is
        if (!w.ok.includes(r.code!)) expect(r.stderr, `${w.name} exit ${r.code}`).toMatch(LOCKED);
        if (w.name.startsWith("cassette merge") && r.code === 2) expect(r.stderr).toMatch(/changed while it was being merged|is locked by/);
      }
      const events = await inspectEvents(dir); // exit 0, no warning, every seq unique (the reader refuses duplicates)
      expect(events).toBeGreaterThan(0);
      expect(() => readCassetteSync(dir, { frames: "verify" })).not.toThrow();
      const other = (w: Run) => (w === wa ? wb : wa);
      for (const w of [wa, wb]) {
        if (!w.answered) continue;
        const got = w.answered.inCassette(dir);
        // every answered call is there, unless the other writer replaced or pruned calls after it
        if (other(w).drops) expect([0, w.answered.count()], w.name).toContain(got);
        else expect(got, w.name).toBe(w.answered.count());
      }
      expect(leftovers(dir)).toEqual([]);
    });
  }
});

describe("record-missing after a killed verify --update: the stale lock is taken over", () => {
  it("the next writer runs (exit 0) and leaves no temp file of the killed one", { timeout: 60_000 }, async () => {
    const dir = copyOf(earlier);
    const r = await spawnCli(verifyArgs(dir), { env: { ...NO_DISPLAY, ...KILL_AT("before-rename") } });
    expect(r.signal).toBe("SIGKILL");
    const answered = next("answered");
    const grown = await runCliInProcess(recordMissingArgs(dir, answered));
    expect(grown.exitCode, grown.stderr).toBe(0);
    expect(addedCalls(dir)).toBe(answeredCalls(answered));
    expect(await inspectEvents(dir)).toBe(FLOW_EVENTS + CALLS);
    expect(leftovers(dir)).toEqual([]);
  });
});
