// The package's entries (src/public/, one file per "exports" subpath) are lists a user can read:
// the root stays small and pinned, every name is exported by exactly one entry and spelled out (no
// `export *`), and every export carries a doc comment where it is declared, which is what an
// editor shows. The compiler API is TypeScript 5's (`typescript-api`): the type-check itself runs
// TypeScript 7, which has no stable one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript-api";
import { describe, expect, it } from "vitest";
import * as root from "./index.js";

/** The root's run-time names, pinned: a new one is a deliberate change to this list (decision 0225). */
const ROOT_VALUES = [
  "CheckResultSchema",
  "DriverContractSchema",
  "ExpectedFailuresSchema",
  "INVARIANTS",
  "INVARIANT_IDS",
  "ProbeSnapshotSchema",
  "ScenarioSchema",
  "UserError",
  "acquireSnapshot",
  "buildReport",
  "checkContract",
  "contractFromSnapshot",
  "diffSurfaces",
  "formatInvariantReport",
  "importTrajectory",
  "isUserError",
  "probeBinary",
  "probeSdk",
  "readContract",
  "readSnapshot",
  "readTrajectory",
  "renderReport",
  "runGate",
  "runInvariants",
  "runMatrix",
  "runVerify",
  "writeCheckReport",
  "writeReport",
];
const ROOT_LIMIT = 30;

const here = import.meta.dirname;
const repoRoot = path.resolve(here, "..", "..");
const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { exports: Record<string, string | { import?: string }> };

/** Each "exports" subpath and its source file. */
const ENTRIES = Object.entries(pkg.exports)
  .filter(([, e]) => typeof e !== "string" && e.import?.startsWith("./dist/public/"))
  .map(([subpath, e]) => ({
    subpath,
    file: path.join(repoRoot, "src", (e as { import: string }).import.slice("./dist/".length).replace(/\.js$/, ".ts")),
  }));

function program(): { checker: ts.TypeChecker; program: ts.Program } {
  const config = ts.readConfigFile(path.join(repoRoot, "tsconfig.json"), ts.sys.readFile).config as { compilerOptions: unknown };
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, repoRoot);
  const p = ts.createProgram(
    ENTRIES.map((e) => e.file),
    { ...options, noEmit: true },
  );
  return { checker: p.getTypeChecker(), program: p };
}

describe("the public entries", () => {
  it("are one file of src/public/ per package.json subpath, and nothing else is there", () => {
    expect(ENTRIES.map((e) => e.subpath).sort()).toEqual([".", "./harness", "./msw", "./replay", "./testing", "./vitest"]);
    const files = readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    expect(ENTRIES.map((e) => path.basename(e.file)).sort()).toEqual(files.sort());
  });

  it(`the root exports at most ${ROOT_LIMIT} run-time names, exactly the pinned ones`, () => {
    expect(Object.keys(root).sort()).toEqual([...ROOT_VALUES].sort());
    expect(ROOT_VALUES.length).toBeLessThanOrEqual(ROOT_LIMIT);
  });

  it("spell out every name: no `export *`", () => {
    const starred = ENTRIES.filter((e) => /export\s+(type\s+)?\*/.test(readFileSync(e.file, "utf8"))).map((e) => e.subpath);
    expect(starred).toEqual([]);
  });

  describe("with the compiler", { timeout: 120_000 }, () => {
    const { checker, program: p } = program();
    const exportsOf = (file: string) => checker.getExportsOfModule(checker.getSymbolAtLocation(p.getSourceFile(file)!)!);
    const declared = (s: ts.Symbol) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);

    it("export each name, value or type, from exactly one entry", () => {
      const where = new Map<string, string[]>();
      for (const e of ENTRIES) for (const s of exportsOf(e.file)) where.set(s.getName(), [...(where.get(s.getName()) ?? []), e.subpath]);
      expect([...where].filter(([, subpaths]) => subpaths.length > 1).map(([name, subpaths]) => `${name}: ${subpaths.join(", ")}`)).toEqual([]);
      expect(where.size).toBeGreaterThan(150);
    });

    it("give every export a doc comment where it is declared", () => {
      const undocumented: string[] = [];
      for (const e of ENTRIES) {
        for (const s of exportsOf(e.file)) {
          const target = declared(s);
          if (target.getDocumentationComment(checker).length === 0) {
            const at = target.declarations?.[0];
            const where = at ? `${path.relative(repoRoot, at.getSourceFile().fileName)}` : "?";
            undocumented.push(`${e.subpath} ${s.getName()} (${where})`);
          }
        }
      }
      expect(undocumented).toEqual([]);
    });
  });
});
