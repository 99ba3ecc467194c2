/**
 * A throwaway X desktop for recording from the real runtime: Xvfb on a free display (:90-:99),
 * a private D-Bus session, the at-spi accessibility bus and registry, openbox, and a target app
 * (gtk3-demo by default). Every process is started by us, its pid written to a private state
 * directory, and torn down by pid (never by name).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isUserError, UserError } from "#src/errors.js";
import { missingDesktopPrograms } from "./programs.js";
import { killTree, waitFor } from "./processes.js";

/** What desktop to start: the app, the screen size, the displays to try and where to keep its state. */
export interface DesktopOptions {
  /** The app to launch; `null` for none. Default `["gtk3-demo"]`. */
  app?: string[] | null;
  width?: number;
  height?: number;
  /** Display numbers to try, in order. Default 90..99. */
  displays?: number[];
  /** Where the private state directory is created. Default the OS temp dir. */
  stateRoot?: string;
}

export interface DesktopProcess {
  name: string;
  pid: number;
}

export interface DesktopState {
  display: string;
  stateDir: string;
  /** What a recording process needs: DISPLAY, DBUS_SESSION_BUS_ADDRESS, … */
  env: Record<string, string>;
  processes: DesktopProcess[];
  appPid?: number;
}

/** A running throwaway desktop: its display and processes; dispose it to stop them. */
export interface Desktop extends DesktopState, AsyncDisposable {
  stop(): Promise<void>;
}

const STATE_FILE = "desktop.json";

/** Starts a throwaway X desktop and the app asked for (docs/desktop.md). */
export async function startDesktop(options: DesktopOptions = {}): Promise<Desktop> {
  const missing = await missingDesktopPrograms({ app: options.app === undefined ? ["gtk3-demo"] : options.app });
  if (missing.length > 0) {
    throw new UserError(`cannot start a desktop: ${missing.join(", ")} not found`, {
      code: "DRIVER_UNAVAILABLE",
      field: "--desktop",
      fix: "Install the Debian packages xvfb openbox at-spi2-core gtk-3-examples dbus-x11 (see docs/desktop.md).",
    });
  }
  const root = options.stateRoot ?? os.tmpdir();
  await mkdir(root, { recursive: true });
  const stateDir = await mkdtemp(path.join(root, "cua-desktop-"));
  const processes: DesktopProcess[] = [];
  const children: ChildProcess[] = [];
  const state: DesktopState = { display: "", stateDir, env: {}, processes };
  const launch: Launch = (name, command, args, env, stdout = "ignore", stderr = "ignore") => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", stdout, stderr], detached: true });
    if (typeof stderr === "number") closeSync(stderr);
    if (child.pid === undefined) throw new Error(`${command} did not start`);
    children.push(child);
    child.unref();
    processes.push({ name, pid: child.pid });
    return child;
  };
  try {
    const forget = (pid: number) => {
      const at = processes.findIndex((p) => p.pid === pid);
      if (at >= 0) processes.splice(at, 1);
    };
    // The at-spi bus and every app's accessibility bridge put their sockets in XDG_RUNTIME_DIR, and
    // without one in the user's cache directory (~/.cache/at-spi2-socket-<pid>, left behind by an
    // app that is stopped): a private one in the state directory keeps them with the desktop. Not
    // when its path is too long for a socket (108 bytes with the names put in it): then they go
    // where they went before.
    const runtimeDir = path.join(stateDir, "run");
    if (runtimeDir.length <= 64) {
      await mkdir(runtimeDir, { mode: 0o700 });
      state.env.XDG_RUNTIME_DIR = runtimeDir;
    }
    state.display = await startXvfb({
      launch,
      forget,
      env: state.env,
      width: options.width ?? 1280,
      height: options.height ?? 800,
      displays: options.displays,
    });
    state.env.DISPLAY = state.display;
    state.env.DBUS_SESSION_BUS_ADDRESS = await startDbus({ launch, env: state.env });
    state.env.NO_AT_BRIDGE = "0";
    state.env.GTK_A11Y = "atspi";
    launch("at-spi-bus-launcher", "/usr/libexec/at-spi-bus-launcher", ["--launch-immediately"], state.env);
    await waitFor({ what: "the at-spi bus", timeoutMs: 10_000, check: () => a11yBusReady(state.env) });
    launch("at-spi2-registryd", "/usr/libexec/at-spi2-registryd", [], state.env);
    // An app started before the registry answers waits out a D-Bus timeout (25 s) in its a11y bridge.
    await waitFor({ what: "the at-spi registry", timeoutMs: 10_000, check: () => a11yRegistryReady(state.env) });
    launch("openbox", "openbox", [], state.env);
    const app = options.app === undefined ? ["gtk3-demo"] : options.app;
    if (app && app.length > 0) {
      // An app stuck at start-up with no window (seen rarely, with many desktops starting on two
      // cores) is started once more before the desktop is given up; its stderr is kept for the message.
      for (let attempt = 1; ; attempt++) {
        const log = path.join(stateDir, `app-${attempt}.stderr`);
        const child = launch("app", app[0]!, app.slice(1), state.env, "ignore", openSync(log, "w", 0o600));
        state.appPid = child.pid!;
        let exited: string | undefined;
        child.once("exit", (code, signal) => (exited = signal ? `was killed by ${signal}` : `exited with code ${code}`));
        try {
          await waitFor({
            what: `a window of ${app[0]}${attempt > 1 ? " (started twice)" : ""}`,
            timeoutMs: 20_000,
            check: async () => {
              if (exited) {
                throw new UserError(`${app.join(" ")} ${exited} before it showed a window (DISPLAY ${state.display})${stderrTail(log)}`, {
                  code: "BAD_INPUT",
                  field: "--app",
                  fix: "Pass a program that opens a window and stays open (the default is gtk3-demo), or --no-app for none.",
                });
              }
              return hasWindow(state.env, child.pid!);
            },
          });
          break;
        } catch (error) {
          if (isUserError(error)) throw error;
          if (attempt === 2) throw new Error(`${error instanceof Error ? error.message : String(error)}${stderrTail(log)}`);
          await killTree(child.pid!);
          forget(child.pid!);
        }
      }
      // A window on screen is not yet a tree the driver can read: wait until the app's windows are on the a11y bus.
      await waitFor({ what: `the accessibility tree of ${app[0]}`, timeoutMs: 30_000, check: () => a11yAppReady(state.env) });
    }
    await writeFile(path.join(stateDir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    await stopProcesses(processes);
    await rm(stateDir, { recursive: true, force: true });
    if (isUserError(error)) throw error;
    throw new UserError(`cannot start a desktop: ${error instanceof Error ? error.message : String(error)}`, {
      code: "DRIVER_UNAVAILABLE",
      field: "--desktop",
      fix: "Check the desktop packages (docs/desktop.md); on a loaded machine, retry.",
      cause: error,
    });
  } finally {
    for (const child of children) child.stdout?.destroy();
  }
  return withStop(state);
}

/** Stops the desktop whose state directory is `stateDir` (from `desktop start`). */
export async function stopDesktop(options: { stateDir: string }): Promise<void> {
  const file = path.join(options.stateDir, STATE_FILE);
  let state: DesktopState;
  try {
    state = JSON.parse(await readFile(file, "utf8")) as DesktopState;
  } catch (error) {
    throw new UserError(`no desktop state in ${options.stateDir}`, {
      code: "BAD_INPUT",
      file,
      fix: "Pass the CUA_DESKTOP_STATE directory that `desktop start` printed.",
      cause: error,
    });
  }
  await stopProcesses(state.processes);
  await rm(options.stateDir, { recursive: true, force: true });
}

/** Shell lines that export the desktop's environment (what `desktop start` prints). */
export function desktopExports(state: DesktopState): string {
  const env = { ...state.env, CUA_DESKTOP_STATE: state.stateDir, ...(state.appPid ? { CUA_DESKTOP_APP_PID: String(state.appPid) } : {}) };
  return Object.entries(env)
    .map(([k, v]) => `export ${k}='${v.replaceAll("'", "'\\''")}'`)
    .join("\n");
}

function withStop(state: DesktopState): Desktop {
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopProcesses(state.processes).then(() => rm(state.stateDir, { recursive: true, force: true })));
  return { ...state, stop, [Symbol.asyncDispose]: stop };
}

async function stopProcesses(processes: DesktopProcess[]): Promise<void> {
  // Newest first: the app before openbox before the buses before the X server.
  for (const proc of [...processes].reverse()) await killTree(proc.pid);
}

type Launch = (
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  stdout?: "ignore" | "pipe",
  stderr?: "ignore" | number,
) => ChildProcess;

/** `: <last lines>` of what the app wrote to stderr, or nothing. */
function stderrTail(file: string): string {
  let text = "";
  try {
    text = readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
  return text ? `; it wrote: ${text.split("\n").slice(-3).join(" | ").slice(0, 400)}` : "";
}

async function startXvfb(options: {
  launch: Launch;
  /** Drops a launched process that is gone from the ones stopped later (its pid may be reused). */
  forget: (pid: number) => void;
  env: Record<string, string>;
  width: number;
  height: number;
  displays?: number[] | undefined;
}): Promise<string> {
  for (const n of options.displays ?? [90, 91, 92, 93, 94, 95, 96, 97, 98, 99]) {
    if (existsSync(`/tmp/.X${n}-lock`) || existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    // Ready is Xvfb saying so on -displayfd, not the socket appearing: when two runs pick the same
    // free number at once, the socket is the winner's and the loser's Xvfb exits without writing.
    const child = options.launch(
      "Xvfb",
      "Xvfb",
      [`:${n}`, "-screen", "0", `${options.width}x${options.height}x24`, "-nolisten", "tcp", "-noreset", "-displayfd", "1"],
      options.env,
      "pipe",
    );
    const ready = await new Promise<boolean>((resolve) => {
      let said = "";
      const timer = setTimeout(() => resolve(false), 10_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes("\n")) {
          clearTimeout(timer);
          resolve(said.trim() === String(n));
        }
      });
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ready) return `:${n}`;
    await killTree(child.pid!);
    options.forget(child.pid!);
  }
  throw new UserError("no free X display among :90-:99", { code: "DRIVER_UNAVAILABLE", fix: "Stop desktops left running (desktop stop) or free a display." });
}

async function startDbus(options: { launch: Launch; env: Record<string, string> }): Promise<string> {
  const child = options.launch("dbus-daemon", "dbus-daemon", ["--session", "--nofork", "--print-address=1"], options.env, "pipe");
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error("dbus-daemon printed no address within 10 s")), 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split("\n")[0];
      if (buffered.includes("\n") && line) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
    child.once("exit", () => reject(new Error("dbus-daemon exited")));
  });
}

/** Whether the accessibility bus answers with its address. */
async function a11yBusReady(env: Record<string, string>): Promise<boolean> {
  return (await a11yBusAddress(env)) !== undefined;
}

async function a11yRegistryReady(env: Record<string, string>): Promise<boolean> {
  const address = await a11yBusAddress(env);
  if (!address) return false;
  const { execa } = await import("execa");
  const owner = await execa(
    "dbus-send",
    [
      `--bus=${address}`,
      "--print-reply=literal",
      "--dest=org.freedesktop.DBus",
      "/org/freedesktop/DBus",
      "org.freedesktop.DBus.NameHasOwner",
      "string:org.a11y.atspi.Registry",
    ],
    { env: { ...process.env, ...env }, reject: false, timeout: 2_000 },
  );
  return owner.exitCode === 0 && owner.stdout.includes("true");
}

/**
 * Whether an app has registered with the at-spi registry and shows a window there that has content:
 * a window whose children are not on the bus yet reads as a one-element window (seen under load,
 * with the app's window already listed).
 */
async function a11yAppReady(env: Record<string, string>): Promise<boolean> {
  const address = await a11yBusAddress(env);
  if (!address) return false;
  const { execa } = await import("execa");
  const run = (args: string[]) =>
    execa("dbus-send", [`--bus=${address}`, "--print-reply", ...args], { env: { ...process.env, ...env }, reject: false, timeout: 2_000 });
  const childrenOf = async (dest: string, object: string) => {
    const r = await run([`--dest=${dest}`, object, "org.a11y.atspi.Accessible.GetChildren"]);
    return r.exitCode === 0 ? [...r.stdout.matchAll(/string "(:[0-9.]+)"\s+object path "([^"]+)"/g)].map((m) => ({ dest: m[1]!, object: m[2]! })) : [];
  };
  for (const app of await childrenOf("org.a11y.atspi.Registry", ACCESSIBLE_ROOT)) {
    for (const window of await childrenOf(app.dest, ACCESSIBLE_ROOT)) {
      const count = await run([
        `--dest=${window.dest}`,
        window.object,
        "org.freedesktop.DBus.Properties.Get",
        "string:org.a11y.atspi.Accessible",
        "string:ChildCount",
      ]);
      if (count.exitCode === 0 && Number(/int32 (\d+)/.exec(count.stdout)?.[1] ?? 0) > 0) return true;
    }
  }
  return false;
}

const ACCESSIBLE_ROOT = "/org/a11y/atspi/accessible/root";

async function a11yBusAddress(env: Record<string, string>): Promise<string | undefined> {
  const { execa } = await import("execa");
  const bus = await execa("dbus-send", ["--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"], {
    env: { ...process.env, ...env },
    reject: false,
    timeout: 2_000,
  });
  const address = bus.exitCode === 0 ? bus.stdout.trim() : "";
  return address.startsWith("unix:") ? address : undefined;
}

async function hasWindow(env: Record<string, string>, pid: number): Promise<boolean> {
  const { execa } = await import("execa");
  const r = await execa("xdotool", ["search", "--onlyvisible", "--pid", String(pid)], { env: { ...process.env, ...env }, reject: false, timeout: 2_000 });
  return r.exitCode === 0 && r.stdout.trim().length > 0;
}
