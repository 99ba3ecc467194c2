import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanStaleTemps, openAtomicFile, tempNameFor, writeAll, writeFileAtomic } from "./atomic-file.js";
import { acquireLock } from "./file-lock.js";

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "cua-atomic-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("atomic file", () => {
  it("leaves the target as it was until commit, then holds the whole new file; no temp stays", () => {
    const dir = scratch();
    const file = path.join(dir, "cassette.jsonl");
    writeFileSync(file, "old\n");
    const out = openAtomicFile({ file });
    out.write("new ");
    out.write(Buffer.alloc(3 << 20, 0x61)); // past the buffer: written through
    out.write("\n");
    expect(readFileSync(file, "utf8")).toBe("old\n");
    expect(existsSync(out.temp)).toBe(true);
    out.commit();
    expect(readFileSync(file).length).toBe(4 + (3 << 20) + 1);
    expect(readdirSync(dir)).toEqual(["cassette.jsonl"]);
  });

  it("abort removes the temp file and keeps the old one", () => {
    const dir = scratch();
    const file = path.join(dir, "x");
    writeFileSync(file, "old");
    const out = openAtomicFile({ file });
    out.write("new");
    out.abort();
    expect(readFileSync(file, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["x"]);
  });

  it("a new file is 0600 whatever the umask; a rewritten one keeps its mode", () => {
    const dir = scratch();
    const fresh = path.join(dir, "fresh");
    writeFileAtomic({ file: fresh, data: "a" });
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const shared = path.join(dir, "shared");
    writeFileSync(shared, "a", { mode: 0o644 });
    writeFileAtomic({ file: shared, data: "b" });
    expect(statSync(shared).mode & 0o777).toBe(0o644);
    expect(readFileSync(shared, "utf8")).toBe("b");
  });

  it("a write that writes nothing is a full disk, never ignored", () => {
    // /dev/full answers every write with ENOSPC
    if (!existsSync("/dev/full")) return;
    const fd = openSync("/dev/full", "w");
    try {
      expect(() => writeAll(fd, Buffer.from("x"))).toThrow(/ENOSPC/);
    } finally {
      closeSync(fd);
    }
  });

  it("removes the temp files of dead writers, not those of a live one", () => {
    const dir = scratch();
    const mine = tempNameFor(path.join(dir, "a"));
    writeFileSync(mine, "");
    const dead = path.join(dir, `.a.${2 ** 22 + 12345}-1.cua-tmp`);
    writeFileSync(dead, "half");
    const legacy = path.join(dir, `cassette.jsonl.record-missing-${2 ** 22 + 12346}.tmp`);
    writeFileSync(legacy, "half");
    expect(cleanStaleTemps(dir).sort()).toEqual([legacy, dead].sort());
    expect(existsSync(mine)).toBe(true);
  });
});

describe("file lock", () => {
  it("a second taker waits, then fails naming the holder; a released lock can be taken", () => {
    const dir = scratch();
    const file = path.join(dir, ".lock");
    const held = acquireLock({ file, what: "the cassette", command: "cua-contract record --out x" });
    const doc = JSON.parse(readFileSync(file, "utf8")) as { pid: number; command: string; since: string };
    expect(doc.pid).toBe(process.pid);
    // this process holds it: taking it again is counted, not refused
    const again = acquireLock({ file, what: "the cassette", waitMs: 0 });
    again.release();
    expect(existsSync(file)).toBe(true);
    held.release();
    expect(existsSync(file)).toBe(false);
    // a lock of another live process (pid 1 is always alive)
    writeFileSync(file, JSON.stringify({ pid: 1, command: "cua-contract cassette prune d", since: "2026-01-01T00:00:00.000Z", host: os.hostname() }));
    const started = Date.now();
    let message = "";
    try {
      acquireLock({ file, what: "the cassette d", waitMs: 150 });
    } catch (error) {
      message = (error as Error).message;
      expect((error as { exitCode?: number }).exitCode).toBe(2);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(message).toMatch(/the cassette d is locked by process 1 \(`cua-contract cassette prune d`, since 2026-01-01T00:00:00.000Z\)/);
  });

  it("takes over the lock of a process that is gone", () => {
    const dir = scratch();
    const file = path.join(dir, ".lock");
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 999, command: "killed", since: "2026-01-01T00:00:00.000Z", host: os.hostname() }));
    const lock = acquireLock({ file, what: "the cassette", waitMs: 0 });
    expect((JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid).toBe(process.pid);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
