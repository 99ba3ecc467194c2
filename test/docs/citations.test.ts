// Code and docs cite only files the repository holds (test/docs/citations.ts says what a citation
// is), and the index of decisions lists every decision.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain script with no declarations
import { decisions, renderIndex } from "../../scripts/adr-index.mjs";
import { repoRoot } from "../helpers/run-cli.js";
import { citingFiles, missingCitations } from "./citations.js";

interface Decision {
  number: string;
  file: string;
  title: string;
  supersededBy?: string;
}

describe("citations", () => {
  it("every file the code and the docs cite is in the repository", () => {
    expect(citingFiles(repoRoot).length).toBeGreaterThan(500);
    const missing = missingCitations(repoRoot).map((c) => `${c.file}:${c.line}: ${c.cited}`);
    expect(missing).toEqual([]);
  });

  describe("on a repository that cites what it lacks", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "cua-citations-"));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const put = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    put("docs/held.md", "# held\n");
    put("docs/decisions/0007-a-decision.md", "# 0007 — A decision\n");
    put(
      "src/a.ts",
      [
        "// The rule (CONTRACT.md §3.4), see docs/held.md and docs/decisions/0007.",
        "/** As DESIGN.md §4 says; docs/gone.md; src/b.ts; test/fixtures/x.json */",
        'const s = "CONTRACT.md in a string is not a citation";',
        "// a family of paths is no one file: test/e2e/off-path-{cli,mcp}.ts, docs/decisions/NNNN-title.md",
      ].join("\n"),
    );
    put("docs/page.md", ["See [the page](held.md), [gone](../src/gone.ts) and `contracts/x.json`.", "```sh", "cat docs/not-cited.md", "```"].join("\n"));

    it("names each missing file where it is cited, and nothing else", () => {
      const found = missingCitations(root).map((c) => `${c.file}:${c.line}: ${c.cited}`);
      expect(found).toEqual([
        "docs/page.md:1: ../src/gone.ts",
        "docs/page.md:1: contracts/x.json",
        "src/a.ts:1: CONTRACT.md",
        "src/a.ts:2: DESIGN.md",
        "src/a.ts:2: docs/gone.md",
        "src/a.ts:2: src/b.ts",
        "src/a.ts:2: test/fixtures/x.json",
      ]);
    });
  });
});

describe("the index of decisions (docs/decisions/README.md)", () => {
  const list = decisions(path.join(repoRoot, "docs", "decisions")) as Decision[];
  const index = readFileSync(path.join(repoRoot, "docs", "decisions", "README.md"), "utf8");

  it("lists every decision, with its title and status", () => {
    expect(list.length).toBeGreaterThan(80);
    const rowOf = (d: Decision) => index.split("\n").find((l) => l.startsWith(`| [${d.number}](${d.file}) |`)) ?? "";
    const status = (d: Decision) =>
      d.supersededBy ? `superseded by [${d.supersededBy}](${list.find((x) => x.number === d.supersededBy)?.file}) |` : "accepted |";
    const missing = list.filter((d) => !rowOf(d).includes(d.title.replace(/\|/g, "\\|")) || !rowOf(d).endsWith(status(d)));
    expect(
      missing.map((d) => d.file),
      "node scripts/adr-index.mjs",
    ).toEqual([]);
  });

  it("is what scripts/adr-index.mjs writes", () => {
    expect(index).toBe(renderIndex(list));
  });
});
