import { closeSync, constants, fsyncSync, linkSync, lstatSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UserError } from "#src/errors.js";
import { isAlive, writeAll, writeFailure } from "./atomic-file.js";

/** Who holds a lock: written into the lock file when it is taken. */
export interface LockHolder {
  pid: number;
  /** The command line that took it (`cua-contract cassette prune …`). */
  command: string;
  /** When it was taken (ISO 8601). */
  since: string;
  host: string;
}

export interface HeldLock {
  readonly file: string;
  release(): void;
  [Symbol.dispose](): void;
}

export interface AcquireLockOptions {
  /** The lock file (created with O_EXCL; its presence is the lock). */
  file: string;
  /** What is locked, for messages (`the cassette DIR`). */
  what: string;
  /** How long to wait for another holder before giving up (default: `CUA_CONTRACT_LOCK_WAIT_MS`, else 10 000). */
  waitMs?: number;
  /** The command line recorded as the holder (default: this process's). */
  command?: string;
}

const DEFAULT_WAIT_MS = 10_000;
const POLL_MS = 25;

// A process may take a lock it already holds (a recording's sink and its writer): counted, released at zero.
const held = new Map<string, { count: number; holder: string }>();

/** The wait a lock takes by default: `CUA_CONTRACT_LOCK_WAIT_MS` (milliseconds), else 10 s. */
export function defaultLockWaitMs(): number {
  const raw = process.env.CUA_CONTRACT_LOCK_WAIT_MS;
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_WAIT_MS;
}

/**
 * Takes a lock file: created with O_EXCL, holding `{pid, command, since, host}`. A second taker
 * waits up to `waitMs`, then fails (exit 2) naming the holder; the lock of a process that is gone
 * (same host, pid not running) is taken over. Released by `release()` (idempotent).
 */
export function acquireLock(options: AcquireLockOptions): HeldLock {
  const file = path.resolve(options.file);
  const mine = held.get(file);
  if (mine) {
    mine.count += 1;
    return handle(file);
  }
  const holder: LockHolder = {
    pid: process.pid,
    command: (options.command ?? commandLine()).slice(0, 300),
    since: new Date().toISOString(),
    host: os.hostname(),
  };
  const text = `${JSON.stringify(holder)}\n`;
  const waitMs = options.waitMs ?? defaultLockWaitMs();
  const started = Date.now();
  for (;;) {
    if (tryCreate(file, text)) {
      held.set(file, { count: 1, holder: text });
      return handle(file);
    }
    const current = readHolder(file);
    if (current && isStale(current.holder)) {
      takeOver(file, current.text);
      continue;
    }
    if (Date.now() - started >= waitMs) throw lockedError({ file, what: options.what, holder: current?.holder, waitMs });
    sleep(POLL_MS);
  }
}

/**
 * The live holder of a lock file other than this process, if any: what a reader tells its user when
 * it reads a cassette a writer is busy with. A lock of a dead process, or none, is undefined.
 */
export function liveLockHolder(file: string): LockHolder | undefined {
  const current = readHolder(file);
  const holder = current?.holder;
  if (!holder || holder.pid === process.pid || isStale(holder)) return undefined;
  return holder;
}

function handle(file: string): HeldLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const entry = held.get(file);
    if (!entry) return;
    entry.count -= 1;
    if (entry.count > 0) return;
    held.delete(file);
    // remove it only while it is still ours (never a lock another process took over meanwhile)
    const current = readHolder(file);
    if (current?.text === entry.holder) rmSync(file, { force: true });
  };
  return { file, release, [Symbol.dispose]: release };
}

function tryCreate(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw writeFailure({ file, error });
  }
  try {
    writeAll(fd, Buffer.from(text));
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw writeFailure({ file, error });
  }
  closeSync(fd);
  return true;
}

function readHolder(file: string): { text: string; holder: LockHolder | undefined } | undefined {
  let text: string;
  try {
    if (!lstatSync(file).isFile()) return undefined; // never open a FIFO or a device planted as a lock
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const json = JSON.parse(text) as Partial<LockHolder>;
    if (typeof json.pid === "number") return { text, holder: json as LockHolder };
  } catch {
    // being written this very moment, or torn by a crash: judged by its age below
  }
  return { text, holder: undefined };
}

function isStale(holder: LockHolder | undefined): boolean {
  // an unreadable lock is not taken over: its writer may be between create and write
  if (!holder) return false;
  return holder.host === os.hostname() && !isAlive(holder.pid);
}

/**
 * Moves a dead holder's lock aside and removes it. Two takers racing: the rename succeeds for one;
 * if what it moved is not the stale lock it read (another taker already replaced it), it is put back.
 */
function takeOver(file: string, staleText: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return; // someone else moved it
  }
  let moved = "";
  try {
    moved = readFileSync(aside, "utf8");
  } catch {
    // nothing to compare
  }
  if (moved !== staleText) {
    try {
      linkSync(aside, file);
    } catch {
      // a new lock is there already; the one moved aside belonged to a taker that will find it gone
    }
  }
  rmSync(aside, { force: true });
}

function lockedError(o: { file: string; what: string; holder: LockHolder | undefined; waitMs: number }): UserError {
  const who = o.holder
    ? `process ${o.holder.pid} (\`${o.holder.command}\`, since ${o.holder.since}${o.holder.host !== os.hostname() ? ` on ${o.holder.host}` : ""})`
    : "another process";
  return new UserError(`${o.what} is locked by ${who}; waited ${o.waitMs >= 10_000 ? Math.round(o.waitMs / 1000) : (o.waitMs / 1000).toFixed(1)} s`, {
    code: "LOCKED",
    file: o.file,
    fix: "Wait for that command to finish and run this one again (CUA_CONTRACT_LOCK_WAIT_MS sets how long to wait). If that process is gone for good, delete the lock file.",
  });
}

function commandLine(): string {
  const [, script, ...args] = process.argv;
  return [script ? path.basename(script).replace(/\.js$/, "") : "node", ...args].join(" ");
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
