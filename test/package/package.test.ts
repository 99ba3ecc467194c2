// The package as a user installs it: what `npm pack` puts in the tarball (weight, no maps, build
// info or tests, every entry point present, every README link inside it), what `require()` gets,
// and the docs' TypeScript snippets compiled against the shipped types under both resolutions
// users have (node16 and bundler). The slow end-to-end install is test/package/install.test.ts.
import { execa } from "execa";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { tsSnippets } from "./ts-snippets.js";

interface Packed {
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

/**
 * About msw's 6.05 MB (unpacked), the heaviest of the dependencies: a folder slipping in (tests, source
 * maps, fixtures) adds hundreds of kilobytes and trips it, while features grow the weight by
 * tens of kilobytes (6.05 MB and 1.418 MB packed with the modern MCP era, answer provenance and the
 * tool lists by release; it was 6.0 MB and 1.4 MB before them). The file count guards the same way:
 * about two files (.js, .d.ts) a source module, the docs and the scenarios make some 1 140 today.
 */
const BUDGET = { unpackedBytes: 6_300_000, tarballBytes: 1_500_000, files: 1_200 };

let packed: Packed;
let shipped: Set<string>;

beforeAll(async () => {
  const r = await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot });
  packed = (JSON.parse(r.stdout) as Packed[])[0]!;
  shipped = new Set(packed.files.map((f) => f.path));
}, 60_000);

describe("npm pack", () => {
  it("stays within the weight budget", () => {
    expect(packed.unpackedSize).toBeLessThan(BUDGET.unpackedBytes);
    expect(packed.size).toBeLessThan(BUDGET.tarballBytes);
    expect(packed.entryCount).toBeLessThan(BUDGET.files);
  });

  it("ships no source maps, build info, tests, kept probe snapshots or Python caches", () => {
    const unwanted = packed.files
      .map((f) => f.path)
      // the examples' tests are examples; the package's own tests are not shipped
      .filter((p) => !p.startsWith("examples/"))
      .filter((p) => /\.map$|\.tsbuildinfo$|\.test\.[cm]?[jt]s$|^integrations\/pytest\/tests\/|^contracts\/snapshots\/|__pycache__|\.pyc$|\.egg-info/.test(p));
    expect(unwanted).toEqual([]);
  });

  it("ships every entry point, the bin and the pytest plugin's build files", () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { exports: Record<string, unknown>; bin: Record<string, string> };
    const targets = Object.values(pkg.exports).flatMap((v) => (typeof v === "string" ? [v] : Object.values(v as Record<string, string>)));
    const missing = [...targets, ...Object.values(pkg.bin)].map((t) => t.replace(/^\.\//, "")).filter((t) => !shipped.has(t));
    expect(missing).toEqual([]);
    for (const f of ["integrations/pytest/pyproject.toml", "integrations/pytest/_build/cua_contract_build.py", "integrations/pytest/README.md"])
      expect(shipped).toContain(f);
  });

  it("every relative link in README.md points inside the package", () => {
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(5);
    const outside = links.filter((l) => {
      const target = path.posix.normalize(l).replace(/\/$/, "");
      return !shipped.has(target) && ![...shipped].some((f) => f.startsWith(`${target}/`));
    });
    expect(outside).toEqual([]);
  });
});

describe("require()", () => {
  it.each(["cua-contract", "cua-contract/harness", "cua-contract/replay", "cua-contract/msw", "cua-contract/testing", "cua-contract/vitest"])(
    "of %s says the package is ESM-only and how to load it",
    async (specifier) => {
      const script = `try { require(${JSON.stringify(specifier)}); console.log("loaded"); } catch (e) { console.log(e.code + ": " + e.message); }`;
      const r = await execa(process.execPath, ["-e", script], { cwd: repoRoot });
      expect(r.stdout).toContain(`ERR_REQUIRE_ESM: ${specifier} is ESM-only and cannot be loaded with require().`);
      expect(r.stdout).toContain(`await import("${specifier}")`);
    },
  );
});

describe("the docs' TypeScript snippets against the shipped types", () => {
  // inside the repository, so `cua-contract/…` resolves to this package by its own name through "exports"
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(repoRoot, "test", "package", ".snippets-"));
    for (const s of tsSnippets(repoRoot)) writeFileSync(path.join(dir, `${s.name}.mts`), s.source);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finds the README's snippets and the docs'", () => {
    const names = tsSnippets(repoRoot).map((s) => s.name);
    expect(names.some((n) => n.startsWith("README"))).toBe(true);
    expect(names.length).toBeGreaterThanOrEqual(5);
  });

  it.each([
    ["node16", { module: "node16", moduleResolution: "node16" }],
    ["bundler", { module: "preserve", moduleResolution: "bundler" }],
  ])("compile with %s resolution", { timeout: 120_000 }, async (_name, resolution) => {
    const config = path.join(dir, `tsconfig.${_name}.json`);
    const compilerOptions = {
      ...resolution,
      target: "es2022",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [path.join(repoRoot, "node_modules", "@types")],
    };
    writeFileSync(config, JSON.stringify({ compilerOptions, include: ["*.mts"] }));
    expect(existsSync(path.join(repoRoot, "dist", "public", "harness.d.ts")), "npm run build first").toBe(true);
    const r = await execa(path.join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", config, "--singleThreaded"], { cwd: dir, reject: false, all: true });
    expect(r.all).toBe("");
    expect(r.exitCode).toBe(0);
  });
});
