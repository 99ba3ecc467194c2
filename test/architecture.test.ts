// The layering of src/, checked on every run: which folder may import which (in one direction,
// with no circles), a pure core that does no I/O and reads no clock or random source, followed
// through everything it imports, carriers that only mount a stand-in, and one module that starts
// the driver binary. No exceptions are listed: a finding is fixed by moving code, not by adding it
// here (PROCESS_STARTERS is no exception: it says what each module that starts a process starts,
// and the driver binary is one module's). docs/architecture.md explains the order.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers/run-cli.js";

/**
 * The folders of src/, lowest first. A module may import its own folder and the folders of
 * earlier groups; folders in one group may import each other only one way (no circle).
 * "(root)" is src/errors.ts and src/version.ts; "public" holds the package's entries (src/public/),
 * which compose the parts.
 */
const ORDER: readonly (readonly string[])[] = [
  ["(root)", "util", "schema"],
  ["driver"],
  ["wire"],
  ["contract"],
  ["runtime"],
  ["cassette"],
  ["faults"],
  ["invariants"],
  ["harness"],
  ["shim-server"],
  ["replay"],
  ["transports"],
  ["desktop"],
  ["probe"],
  ["recorder"],
  ["verify", "import", "report"],
  ["check"],
  ["fuzz"],
  ["testing", "vitest"],
  ["cli"],
  ["public"],
];

/**
 * The pure core, whole folders: data in, data out. No module reachable from them (through
 * runtime imports, whatever folder it is in) may import node built-ins or I/O libraries, touch
 * console, process or timers, or read the clock or a random source: time comes from the Clock
 * port, randomness from a seeded PRNG.
 */
const PURE: readonly string[] = [
  "src/schema",
  "src/driver",
  "src/wire",
  "src/transports/cli/wire",
  "src/transports/http/wire",
  "src/transports/mcp/wire",
  "src/contract",
  "src/cassette/exchanges",
  "src/faults",
  "src/invariants",
  "src/harness/core",
  "src/replay/engine",
  "src/fuzz/arbitraries",
  "src/report/html",
  "src/import/reconstruct",
];

/** Modules of the pure core that live beside impure ones: each transport's answers and fault rendering. */
const PURE_FILES: readonly string[] = ["src/transports/cli/answer.ts", "src/transports/mcp/answer.ts"];

const FORBIDDEN_IMPORT = /^(node:|fs$|path$|os$|child_process$|net$|execa|msw|@modelcontextprotocol\/|sharp|pixelmatch|yargs|playwright)/;
const FORBIDDEN_CALLS: readonly [RegExp, string][] = [
  [/\bconsole\./, "console"],
  [/\bprocess\./, "process"],
  [/\b(setTimeout|setInterval|setImmediate|queueMicrotask)\(/, "timers"],
  [/\bDate\.now\(/, "Date.now()"],
  [/\bnew Date\(\s*\)/, "new Date()"],
  [/\bperformance\.now\(/, "performance.now()"],
  [/\bMath\.random\(/, "Math.random()"],
];
/** Module-level state a pure module could mutate between calls: a top-level let/var, or a mutable collection. */
const MODULE_STATE = /^(?:export\s+)?(?:let|var)\s|^(?:export\s+)?const\s+\w+\s*(?::\s*(?!Readonly)[^=\s][^=]*)?=\s*new\s+(?:Map|Set|WeakMap|WeakSet)\b/;

/**
 * Every module that starts a process, and what it starts. The cua-driver binary is started by one
 * module only (decision 0210): a module that runs it any other way is a second place to keep
 * in step (how it is found, its environment, how it is stopped) and fails here.
 */
const PROCESS_STARTERS: Readonly<Record<string, string>> = {
  "src/runtime/driver-process.ts": "the cua-driver binary, the only module that starts it",
  "src/runtime/load.ts": "npm, installing the published runtime",
  "src/runtime/registry.ts": "npm, asking the registry for versions",
  "src/desktop/desktop.ts": "Xvfb, the session bus, the window manager, the app, xdotool",
  "src/desktop/recording-desktop.ts": "a shell that stops the desktop when the recorder dies",
  "src/shim-server/native-shim.ts": "the C compiler that builds the native shim",
  "src/shim-server/run-harness.ts": "the user's harness",
  "src/check/external-run.ts": "the user's harness",
  "src/vitest/harness-run.ts": "the user's harness",
};
const STARTS_PROCESS = /^((node:)?child_process|execa|cross-spawn|@modelcontextprotocol\/sdk\/client\/stdio(\.js)?)$/;

/**
 * The carriers: what moves a harness's bytes (the shim's socket and stdio, an HTTP server, msw,
 * stdin/stdout of `serve`). A carrier mounts a stand-in (src/driver/stand-in.ts, decision 0210)
 * and decides nothing: no replay engine, fault, answer renderer or dispatcher, and no
 * `decide(…)` of its own. Found by what they do (a server, a line reader, msw handlers), plus
 * everything of the shim-server.
 */
const CARRIES = /\b(http|net)\.createServer\(|\bcreateInterface\(|\bfrom "msw"/;
const DECIDES_IMPORT = /^src\/(replay\/engine\/|faults\/|transports\/[^/]+\/(answer|dispatch)\.ts$)/;
/** record-missing asking its live driver (`LiveDriver.cli` / `.mcp`). */
const ASKS_LIVE = /\blive\.(cli|mcp!?)\(/;
const DECIDES_CALL = /\.decide\(|\b(dispatchMcpLine|answerCli|answerMcpCall|answerInprocess)\(/;

/**
 * A branch on a transport by its name: a switch arm, a comparison with "http" or "inprocess" (names
 * nothing else uses), or the recorded transports' union restated instead of named. What a transport
 * is and how its recorded exchanges read belong to its folder and to the exchange reader, which
 * keeps one entry per transport in a record keyed by its name (decision 0276); elsewhere a reader
 * asks them. A record keyed by a transport's type is no branch: a new transport fails its type-check.
 * (A comparison with "cli" or "mcp" alone is left out: a replay request's transport, the log's
 * stream events and the driver's subcommands use those names too.)
 */
const TRANSPORT_BRANCH = /\bcase "(cli|mcp|http|inprocess)"\s*:|[!=]==\s*"(http|inprocess)"|"(http|inprocess)"\s*[!=]==|"cli" \| "mcp"/;
/** Where a transport may be named in a branch: its own folder, and the exchange reader. */
const TRANSPORT_HOME = /^src\/(transports\/|cassette\/exchanges\/)/;

interface Module {
  file: string;
  folder: string;
  /** Relative imports resolved to src files, with whether they stay at run time. */
  imports: { target: string; runtime: boolean; line: number }[];
  bare: { spec: string; line: number }[];
  lines: string[];
}

const SRC = path.join(repoRoot, "src");

/**
 * A transport's folder holds the transport whole (decision 0265); its `wire/` sub-folder is the
 * transport's encoding, which the pure core reads (the replay engine's request and answer shapes),
 * so it sits in the wire layer with the shared encodings of src/wire/, not with the transport's
 * fronts and clients.
 */
function folderOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  if (rel[0] === "transports" && rel[2] === "wire" && rel.length > 3) return "wire";
  return rel.length === 1 ? "(root)" : rel[0]!;
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join(SRC, f));
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/;

function parse(file: string): Module {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const imports: Module["imports"] = [];
  const bare: Module["bare"] = [];
  // a statement may span lines: join each import/export statement up to its specifier
  let pending: { start: number; text: string } | undefined;
  lines.forEach((raw, i) => {
    const code = raw.replace(/\/\/.*$/, "");
    const chunk = pending ? `${pending.text} ${code}` : code;
    const start = pending?.start ?? i;
    if (!pending && !/^\s*(import|export)\b|\bimport\(/.test(code)) return;
    const m = IMPORT.exec(chunk);
    if (!m) {
      // an `import {` or `export {` whose specifier is on a later line
      pending = /^\s*(import|export)\s[^;]*$/.test(chunk) && !/["']\s*;?\s*$/.test(chunk) ? { start, text: chunk } : undefined;
      return;
    }
    pending = undefined;
    const spec = m[3] ?? m[4]!;
    const typeOnly = m[2] !== undefined;
    if (spec.startsWith(".") || spec.startsWith("#src/")) {
      const target = spec.startsWith("#src/")
        ? path.join(SRC, spec.slice("#src/".length).replace(/\.js$/, ".ts"))
        : path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts"));
      imports.push({ target, runtime: !typeOnly, line: start + 1 });
    } else if (!typeOnly) {
      bare.push({ spec, line: start + 1 });
    }
  });
  return { file, folder: folderOf(file), imports, bare, lines };
}

const modules = new Map(sourceFiles().map((f) => [f, parse(f)]));
const rel = (file: string) => path.relative(repoRoot, file);
const rank = new Map(ORDER.flatMap((group, i) => group.map((folder) => [folder, i] as const)));

/** The modules package.json exports: the public entry points, each a file of src/public/. */
function entryFiles(): Set<string> {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { exports: Record<string, string | { import?: string }> };
  const files = Object.values(pkg.exports)
    .map((e) => (typeof e === "string" ? e : e.import))
    .filter((e): e is string => typeof e === "string" && e.startsWith("./dist/"))
    .map((e) => path.join(SRC, e.slice("./dist/".length).replace(/\.js$/, ".ts")));
  return new Set(files);
}

describe("architecture", () => {
  const entries = entryFiles();

  it("knows every folder of src/ and every entry point", () => {
    const folders = new Set([...modules.values()].map((m) => m.folder));
    expect(
      [...folders].filter((f) => !rank.has(f)),
      "add the folder to ORDER",
    ).toEqual([]);
    for (const e of entries) expect(modules.has(e), rel(e)).toBe(true);
    expect(entries.size).toBeGreaterThan(4);
    // every entry is a file of src/public/, and every file there is an entry
    const publicFiles = [...modules.keys()].filter((f) => folderOf(f) === "public");
    expect([...entries].map(rel).sort()).toEqual(publicFiles.map(rel).sort());
  });

  it("imports only down the folder order (the public entry points excepted: they compose the parts)", () => {
    const offences: string[] = [];
    for (const m of modules.values()) {
      if (entries.has(m.file)) continue;
      for (const i of m.imports) {
        const to = modules.get(i.target);
        if (!to) continue;
        if (entries.has(to.file) && to.folder !== m.folder)
          offences.push(`${rel(m.file)}:${i.line}: imports the public entry ${rel(to.file)}; import the module itself`);
        if (to.folder === m.folder) continue;
        if (rank.get(to.folder)! > rank.get(m.folder)!)
          offences.push(`${rel(m.file)}:${i.line}: ${m.folder} imports ${to.folder} (${rel(to.file)}), which comes later in the order`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("has no circle between folders of one group", () => {
    const edges = new Set<string>();
    for (const m of modules.values()) {
      if (entries.has(m.file)) continue;
      for (const i of m.imports) {
        const to = modules.get(i.target);
        if (to && to.folder !== m.folder && rank.get(to.folder) === rank.get(m.folder)) edges.add(`${m.folder}>${to.folder}`);
      }
    }
    const circles = [...edges].filter((e) => edges.has(e.split(">").reverse().join(">")));
    expect(circles).toEqual([]);
  });

  it("has no import circle between modules, type imports included", () => {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    let counter = 0;
    const visit = (file: string) => {
      index.set(file, counter);
      low.set(file, counter);
      counter++;
      stack.push(file);
      onStack.add(file);
      for (const i of modules.get(file)!.imports) {
        if (!modules.has(i.target)) continue;
        if (!index.has(i.target)) {
          visit(i.target);
          low.set(file, Math.min(low.get(file)!, low.get(i.target)!));
        } else if (onStack.has(i.target)) {
          low.set(file, Math.min(low.get(file)!, index.get(i.target)!));
        }
      }
      if (low.get(file) === index.get(file)) {
        const component: string[] = [];
        let top: string;
        do {
          top = stack.pop()!;
          onStack.delete(top);
          component.push(rel(top));
        } while (top !== file);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const file of modules.keys()) if (!index.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it("starts the driver binary in one module, and every other process where it says what it starts", () => {
    const offences: string[] = [];
    for (const m of modules.values()) {
      for (const b of m.bare)
        if (STARTS_PROCESS.test(b.spec) && !(rel(m.file) in PROCESS_STARTERS))
          offences.push(
            `${rel(m.file)}:${b.line}: imports ${b.spec}; a driver is started through src/runtime/driver-process.ts, anything else is named in PROCESS_STARTERS`,
          );
    }
    expect(offences).toEqual([]);
    for (const file of Object.keys(PROCESS_STARTERS)) expect(modules.has(path.join(repoRoot, file)), file).toBe(true);
  });

  it("has carriers that mount a stand-in and decide no answer of their own", () => {
    const carriers = [...modules.values()].filter((m) => m.folder === "shim-server" || m.lines.some((l) => CARRIES.test(l)));
    expect(carriers.length).toBeGreaterThan(5);
    const offences: string[] = [];
    for (const m of carriers) {
      for (const i of m.imports)
        if (i.runtime && DECIDES_IMPORT.test(rel(i.target)))
          offences.push(`${rel(m.file)}:${i.line}: a carrier imports ${rel(i.target)}; mount a stand-in instead`);
      m.lines.forEach((text, n) => {
        if (/^\s*(\*|\/\*|\/\/)/.test(text)) return;
        if (DECIDES_CALL.test(text.replace(/\/\/.*$/, ""))) offences.push(`${rel(m.file)}:${n + 1}: a carrier decides an answer; mount a stand-in instead`);
      });
    }
    expect(offences).toEqual([]);
  });

  it("branches on a transport by name only in the transport's folder and the exchange reader", () => {
    const offences: string[] = [];
    for (const m of modules.values()) {
      if (TRANSPORT_HOME.test(rel(m.file))) continue;
      m.lines.forEach((text, n) => {
        if (/^\s*(\*|\/\*|\/\/)/.test(text)) return;
        if (TRANSPORT_BRANCH.test(text.replace(/\/\/.*$/, "")))
          offences.push(
            `${rel(m.file)}:${n + 1}: branches on a transport by name; ask the exchange reader (src/cassette/exchanges/), or key a record by the transport's type`,
          );
      });
    }
    expect(offences).toEqual([]);
    // the rule has something to hold: the reader and the transports' folders branch, and nothing else does
    const homes = [...modules.values()].filter((m) => TRANSPORT_HOME.test(rel(m.file)) && m.lines.some((l) => TRANSPORT_BRANCH.test(l)));
    expect(homes.length).toBeGreaterThan(2);
  });

  it("forwards to the live driver under record-missing only through the fallback combinator", () => {
    // record-missing.ts asks the live driver once before the harness starts (the id table's seed); every
    // harness request reaches it through fallback(replay, tap(live, growth)) (decision 0270)
    const seeds = new Set(["src/recorder/record-missing/record-missing.ts"]);
    const forwarders = [...modules.values()].filter((m) => m.lines.some((l) => ASKS_LIVE.test(l)) && !seeds.has(rel(m.file)));
    expect(forwarders.length).toBeGreaterThan(1);
    const offences = forwarders
      .filter((m) => !m.lines.some((l) => /\bfallback(<[^>]*>)?\(/.test(l)) || !m.imports.some((i) => rel(i.target) === "src/driver/stand-in.ts"))
      .map((m) => `${rel(m.file)}: asks the live driver outside fallback(…); give the combinator a translator and a tap's sink instead`);
    expect(offences).toEqual([]);
  });

  it("keeps the pure core, and everything it imports, free of I/O, clocks and randomness", () => {
    const pure = [...modules.keys()].filter(
      (f) => PURE.some((p) => f.startsWith(path.join(repoRoot, p) + path.sep)) || PURE_FILES.some((p) => f === path.join(repoRoot, p)),
    );
    for (const p of PURE_FILES) expect(modules.has(path.join(repoRoot, p)), p).toBe(true);
    expect(pure.length).toBeGreaterThan(100);
    // every module a pure one reaches at run time
    const reached = new Map<string, string>();
    const walk = (file: string, origin: string) => {
      if (reached.has(file)) return;
      reached.set(file, origin);
      for (const i of modules.get(file)!.imports) if (i.runtime && modules.has(i.target)) walk(i.target, origin);
    };
    for (const f of pure) walk(f, f);
    const pureSet = new Set(pure);
    const offences: string[] = [];
    for (const [file, from] of reached) {
      const m = modules.get(file)!;
      const via = pureSet.has(file) ? "" : ` (reached from the pure ${rel(from)})`;
      for (const b of m.bare) if (FORBIDDEN_IMPORT.test(b.spec)) offences.push(`${rel(file)}:${b.line}: imports ${b.spec}${via}`);
      m.lines.forEach((text, i) => {
        if (/^\s*(\*|\/\*|\/\/)/.test(text)) return;
        const code = text.replace(/\/\/.*$/, "").replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
        for (const [re, what] of FORBIDDEN_CALLS) if (re.test(code)) offences.push(`${rel(file)}:${i + 1}: uses ${what}${via}`);
        if (MODULE_STATE.test(text)) offences.push(`${rel(file)}:${i + 1}: module-level mutable state${via}`);
      });
    }
    expect(offences, "move I/O, clocks, randomness and state out of the pure core").toEqual([]);
  });
});
