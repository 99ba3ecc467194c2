// Every hostile input a writer or reader of a cassette was found to mishandle (a stack trace, a
// hang, exit 0 on garbage, a message naming neither the file nor the fix), with the exit code and
// message each gets now. Runs the CLI in process: a hang fails the test by its timeout.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendHistory } from "#src/probe/gate/append-history.js";
import { runCliInProcess } from "../../helpers/run-cli-in-process.js";
import { tmpDir } from "../../helpers/tmp-dir.js";
import { copyCassette, editLine, FRAME, linesOf, usedLog } from "./fixture.js";

let root: { path: string } & AsyncDisposable;
let n = 0;
beforeAll(async () => {
  root = await tmpDir();
});
afterAll(async () => {
  await root[Symbol.asyncDispose]();
});
const fresh = () => copyCassette(path.join(root.path, `c${n++}`));
const file = (name: string) => path.join(root.path, `${name}-${n++}`);
const mkfifo = (p: string) => execFileSync("mkfifo", [p]);

interface Row {
  name: string;
  /** Makes the input and returns the CLI arguments. */
  setup: () => { args: string[]; check?: () => void };
  exit: number;
  /** What stderr (or stdout for exit 0) must say: the file, the problem and the fix. */
  says: RegExp[];
}

const rows: Row[] = [
  {
    name: "probe.json that is a directory",
    setup: () => {
      const d = fresh();
      mkdirSync(path.join(d, "probe.json"));
      return { args: ["inspect", d] };
    },
    exit: 2,
    says: [/probe\.json: probe\.json is a directory, not a file/, /delete it/],
  },
  {
    name: "a frame that is a FIFO (never opened: no hang)",
    setup: () => {
      const d = fresh();
      rmSync(path.join(d, FRAME));
      mkfifo(path.join(d, FRAME));
      return { args: ["cassette", "prune", d, "--log", usedLog(file("log"), [1, 6])] };
    },
    exit: 2,
    says: [/frames\/ebc1a1.*\.png: frame .* is a FIFO \(named pipe\), not a regular file/, /restore it/],
  },
  {
    name: "a frame that is a link to /dev/zero",
    setup: () => {
      const d = fresh();
      rmSync(path.join(d, FRAME));
      symlinkSync("/dev/zero", path.join(d, FRAME));
      return { args: ["inspect", d] };
    },
    exit: 2,
    says: [/is a device, not a regular file/],
  },
  {
    name: "probe.json that is a FIFO, read by diff (was: a hang)",
    setup: () => {
      const d = fresh();
      mkfifo(path.join(d, "probe.json"));
      return { args: ["diff", d, "recordings/gtk3-demo-cli"] };
    },
    exit: 2,
    says: [/probe\.json: probe\.json is a FIFO \(named pipe\), not a regular file/],
  },
  {
    name: "a fault plan that is a FIFO (was: a hang)",
    setup: () => {
      const plan = file("plan.json");
      mkfifo(plan);
      return { args: ["replay", fresh(), "--faults", plan, "--", "true"] };
    },
    exit: 2,
    says: [/plan\.json-\d+: the fault plan is a FIFO \(named pipe\), not a regular file/],
  },
  {
    name: "cassette.jsonl that is a FIFO",
    setup: () => {
      const d = fresh();
      rmSync(path.join(d, "cassette.jsonl"));
      mkfifo(path.join(d, "cassette.jsonl"));
      return { args: ["inspect", d] };
    },
    exit: 2,
    says: [/cassette\.jsonl: cassette\.jsonl is a FIFO/],
  },
  {
    name: "probe.json that is a link out of the cassette",
    setup: () => {
      const d = fresh();
      const outside = file("probe");
      writeFileSync(outside, "{}\n");
      symlinkSync(outside, path.join(d, "probe.json"));
      return { args: ["cassette", "prune", d, "--log", usedLog(file("log")), "--out", file("out")] };
    },
    exit: 2,
    says: [/probe\.json: probe\.json is a symbolic link out of the cassette/, /cp --remove-destination/],
  },
  {
    name: "a frame signature that is a link (was copied as its target's bytes)",
    setup: () => {
      const d = fresh();
      const outside = file("secret");
      writeFileSync(outside, "not a signature: a file from elsewhere\n");
      const sig = FRAME.replace(/\.png$/, ".sig.json");
      symlinkSync(outside, path.join(d, sig));
      const out = file("out");
      return {
        args: ["cassette", "prune", d, "--log", usedLog(file("log"), [1, 6]), "--out", out],
        check: () => expect(readdirSync(path.join(out, "frames"))).toEqual([path.basename(FRAME)]),
      };
    },
    exit: 0,
    says: [/kept 3 of 8 events and 1 of 1 frames/],
  },
  {
    name: "a cassette another process is writing: inspect says so",
    setup: () => {
      const d = fresh();
      // pid 1 is always running
      writeFileSync(
        path.join(d, ".cua-contract.lock"),
        JSON.stringify({ pid: 1, command: "cua-contract record --out d", since: "2026-05-01T00:00:00.000Z", host: hostname() }),
      );
      return { args: ["inspect", d] };
    },
    exit: 0,
    says: [/is being written by process 1 \(`cua-contract record --out d`, since 2026-05-01T00:00:00\.000Z\): this is what it had written so far/],
  },
  {
    name: "duplicate seq (two writers at once, before the lock)",
    setup: () => {
      const d = fresh();
      editLine(d, 4, (e) => ({ ...e, seq: 1 }));
      return { args: ["inspect", d] };
    },
    exit: 2,
    says: [/cassette\.jsonl:4: seq 1 is used twice \(lines 3 and 4\)/, /keep one of the two lines/],
  },
  {
    name: "seq out of order",
    setup: () => {
      const d = fresh();
      editLine(d, 4, (e) => ({ ...e, seq: 30 }));
      return { args: ["inspect", d] };
    },
    exit: 2,
    says: [/cassette\.jsonl:5: seq 3 comes after seq 30/],
  },
  {
    name: "seq near 2^53",
    setup: () => {
      const d = fresh();
      editLine(d, 9, (e) => ({ ...e, seq: 2 ** 53 - 1 }));
      return { args: ["cassette", "merge", d, fresh(), "--out", file("m")] };
    },
    exit: 2,
    says: [/cassette\.jsonl:9: seq: invalid event: seq must be at most 2\^48/],
  },
  {
    name: "undecodable base64 (replay would serve garbage bytes)",
    setup: () => {
      const d = fresh();
      editLine(d, 3, (e) => ({ ...e, stdout: { encoding: "base64", data: "@@not base64!" } }));
      return { args: ["inspect", d] };
    },
    exit: 2,
    says: [/cassette\.jsonl:3: stdout\.data: invalid event: data is not valid base64/],
  },
  {
    name: 'recorded_at "yesterday-ish"',
    setup: () => {
      const d = fresh();
      editLine(d, 1, (h) => ({ ...h, recorded_at: "yesterday-ish" }));
      return { args: ["inspect", d] };
    },
    exit: 2,
    says: [/cassette\.jsonl:1: recorded_at: bad header: not an ISO 8601 date-time/],
  },
  {
    name: "a cassette dated 2999 (was called fresh)",
    setup: () => {
      const d = fresh();
      editLine(d, 1, (h) => ({ ...h, recorded_at: "2999-01-01T00:00:00.000Z" }));
      return { args: ["cassette", "stale", d, "--max-age", "30d"] };
    },
    exit: 2,
    says: [/cassette\.jsonl:1: recorded_at 2999-01-01T00:00:00\.000Z is in the future/, /Correct the date/],
  },
  {
    name: "prune --log with an empty log (dropped every call, in place)",
    setup: () => {
      const d = fresh();
      const log = file("empty.jsonl");
      writeFileSync(log, "");
      return { args: ["cassette", "prune", d, "--log", log], check: () => expect(linesOf(d)).toHaveLength(9) };
    },
    exit: 2,
    says: [/empty\.jsonl-\d+: --log: the replay log is empty/],
  },
  {
    name: "prune --log /dev/null",
    setup: () => {
      const d = fresh();
      return { args: ["cassette", "prune", d, "--log", "/dev/null"], check: () => expect(linesOf(d)).toHaveLength(9) };
    },
    exit: 2,
    says: [/\/dev\/null: the replay log is a device, not a regular file/],
  },
  {
    name: "prune --log of a run that matched nothing here",
    setup: () => {
      const d = fresh();
      const log = file("foreign.jsonl");
      writeFileSync(
        log,
        `${JSON.stringify({ type: "request", n: 0, t_ms: 0, transport: "cli", method: "call", tool: "x", kind: "read", epoch_before: 0, epoch_after: 0, outcome: "unmatched" })}\n`,
      );
      return { args: ["cassette", "prune", d, "--log", log], check: () => expect(linesOf(d)).toHaveLength(9) };
    },
    exit: 2,
    says: [/the replay logs name no event of .*cassette\.jsonl: pruning would drop every one of its 7 calls/],
  },
  {
    name: "--max-age -1d (was: Unexpected arguments 1, d)",
    setup: () => ({ args: ["cassette", "stale", fresh(), "--max-age", "-1d"] }),
    exit: 2,
    says: [/--max-age must be a duration like 30d, 12h or 2w, got "-1d"/],
  },
  {
    name: "merge of cassettes with different --redact patterns (B's were dropped)",
    setup: () => {
      const a = fresh();
      const b = fresh();
      editLine(b, 1, (h) => ({ ...h, redaction: { enabled: true, patterns: ["sk-[a-z]+"] } }));
      editLine(a, 1, (h) => ({ ...h, redaction: { enabled: true } }));
      return { args: ["cassette", "merge", a, b, "--out", file("m")] };
    },
    exit: 2,
    says: [/its --redact patterns \["sk-\[a-z\]\+"\] ≠ \[\]/, /same --redact patterns/],
  },
  {
    name: "a sub-folder in frames/ (crashed prune after its rename)",
    setup: () => {
      const d = fresh();
      mkdirSync(path.join(d, "frames", "keep-me"));
      return {
        args: ["cassette", "prune", d, "--log", usedLog(file("log"))],
        check: () => expect(readdirSync(path.join(d, "frames"))).toEqual(["keep-me"]),
      };
    },
    exit: 0,
    says: [/kept 2 of 8 events and 0 of 1 frames/],
  },
  {
    name: "prune in place with frames/ a link to a shared folder (deleted every file it did not keep)",
    setup: () => {
      const d = fresh();
      const shared = file("shared");
      mkdirSync(shared);
      for (const f of readdirSync(path.join(d, "frames"))) writeFileSync(path.join(shared, f), readFileSync(path.join(d, "frames", f)));
      writeFileSync(path.join(shared, "notes.txt"), "not a frame");
      writeFileSync(path.join(shared, `${"0".repeat(64)}.png`), "another cassette's frame");
      rmSync(path.join(d, "frames"), { recursive: true });
      symlinkSync(shared, path.join(d, "frames"));
      return {
        args: ["cassette", "prune", d, "--log", usedLog(file("log"))],
        check: () => expect(readdirSync(shared).sort()).toHaveLength(3),
      };
    },
    exit: 0,
    says: [/kept 2 of 8 events/],
  },
];

describe("hostile inputs to the cassette writers and readers", () => {
  for (const row of rows) {
    it(`${row.name}: exit ${row.exit}`, { timeout: 20_000 }, async () => {
      const { args, check } = row.setup();
      const r = await runCliInProcess(args);
      expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(row.exit);
      const said = row.exit === 0 ? `${r.stdout}${r.stderr}` : r.stderr;
      for (const re of row.says) expect(said).toMatch(re);
      expect(said).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
      check?.();
    });
  }

  it("prune keeps invalid UTF-8 in a kept line byte for byte (was rewritten as U+FFFD)", async () => {
    const d = fresh();
    const cassette = path.join(d, "cassette.jsonl");
    const bytes = readFileSync(cassette);
    // a lone 0xff inside the --version event's stderr string
    const at = bytes.indexOf('"stderr":"","exit_code":0,"origin":"recorder"');
    const altered = Buffer.concat([bytes.subarray(0, at + 10), Buffer.from([0xff]), bytes.subarray(at + 10)]);
    writeFileSync(cassette, altered);
    const r = await runCliInProcess(["cassette", "prune", d, "--log", usedLog(file("log"))]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(cassette).includes(Buffer.from([0x22, 0xff, 0x22]))).toBe(true);
  });

  it("gate --history puts a new entry on its own line after a torn one (was glued onto it)", () => {
    const history = file("history.jsonl");
    writeFileSync(history, '{"complete":1}\n{"torn');
    appendHistory(history, {
      format: "cua-gate-history",
      version: 1,
      at: "2026-05-01T00:00:00.000Z",
      contract: "c.json",
      range: "0.21.x",
      recordings: [],
      newest_passing: null,
      versions: [],
    });
    const lines = readFileSync(history, "utf8").split("\n");
    expect(lines[0]).toBe('{"complete":1}');
    expect(lines[1]).toBe('{"torn');
    expect(JSON.parse(lines[2]!)).toMatchObject({ at: "2026-05-01T00:00:00.000Z" });
    expect(existsSync(`${history}.lock`)).toBe(false);
  });
});

describe("a locked cassette", () => {
  it("record-missing waits for the lock, then exits 2 naming the holder, before it runs the harness", { timeout: 30_000 }, async () => {
    const d = fresh();
    writeFileSync(
      path.join(d, ".cua-contract.lock"),
      JSON.stringify({ pid: 1, command: "cua-contract record --out d --append", since: "2026-05-01T00:00:00.000Z", host: hostname() }),
    );
    const marker = file("ran");
    const driver = path.join(process.cwd(), "test/fixtures/drivers/cua-driver-0.21.0");
    const r = await runCliInProcess(
      ["replay", d, "--record-missing", "--allow-in-ci", "--driver", driver, "--driver-source", "synthetic", "--", "sh", "-c", `touch ${marker}`],
      {
        env: { CUA_CONTRACT_LOCK_WAIT_MS: "300" },
      },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /\.cua-contract\.lock: the cassette .* is locked by process 1 \(`cua-contract record --out d --append`, since 2026-05-01T00:00:00\.000Z\); waited 0\.3 s\. Wait for that command to finish/,
    );
    expect(existsSync(marker)).toBe(false);
    expect(linesOf(d)).toHaveLength(9);
  });
});

describe("verify --update over a cassette", () => {
  it("refused after --force keeps DIR's cassette (was deleted); DIR that is the source is refused before anything", { timeout: 60_000 }, async () => {
    const existing = fresh();
    const before = readFileSync(path.join(existing, "cassette.jsonl"));
    const upd = await runCliInProcess(["verify", "recordings/gtk3-demo-cli", "--driver", "sdk:0.21.0", "--update", existing, "--force"], {
      env: { DISPLAY: "" },
    });
    expect(upd.exitCode).toBe(2);
    expect(upd.stderr).toContain("--update needs every call sent");
    expect(readFileSync(path.join(existing, "cassette.jsonl")).equals(before)).toBe(true);
    expect(readdirSync(existing).filter((f) => f.endsWith(".cua-tmp") || f.endsWith(".lock"))).toEqual([]);

    const source = fresh();
    const link = file("link");
    symlinkSync(source, link);
    const sourceBytes = readFileSync(path.join(source, "cassette.jsonl"));
    const self = await runCliInProcess(["verify", source, "--driver", "sdk:0.21.0", "--update", link, "--force"], { env: { DISPLAY: "" } });
    expect(self.exitCode).toBe(2);
    expect(self.stderr).toMatch(/--update .*link-\d+ is the cassette being verified\. Write the updated cassette to another directory/);
    expect(readFileSync(path.join(source, "cassette.jsonl")).equals(sourceBytes)).toBe(true);
  });
});
