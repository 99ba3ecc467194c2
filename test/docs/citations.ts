// The files the repository's code and docs cite, and which of them it does not hold. A citation is
// a path in a comment of a source file (src/, test/, scripts/, bench/, examples/) or in the prose of
// a Markdown page (fenced blocks are commands and their output, not citations): a path under one of
// the repository's folders (`docs/matching.md`, `src/driver/port.ts`, `test/fixtures/…`,
// `contracts/schema/`), a bare Markdown file name (`README.md`), or a relative Markdown link. It
// resolves from the repository's root or from the citing file's folder.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Where code is read for its comments. */
const CODE_ROOTS = ["src", "test", "scripts", "bench", "examples"];
const CODE_FILE = /\.(?:[cm]?[jt]s|py)$/;
/** Copies of other projects' files and recorded data: they cite their own world, not this repository. */
const NOT_OURS = ["test/fixtures/reference/", "docs/reference/cua-driver-skills-named-commits/", "node_modules/", "dist/"];
const TOP = "(?:src|test|scripts|bench|examples|contracts|docs|integrations|recordings|bin|cjs)";
/** A path under a top folder, or a bare Markdown file name. */
const CITED = new RegExp(`(?<![\\w./@-])(?:${TOP}/[\\w@.-]+(?:/[\\w@.-]+)*/?|[\\w-]+(?:\\.[\\w-]+)*\\.md)(?![\\w/@-])`, "g");
const LINK = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;
/** Not a path but a pattern or a placeholder: globs, `<name>`, `{a,b}`, `…`, `${x}`, `NAME`, `VERSION`, `NNNN`. */
const PLACEHOLDER = /[*<>{}…$]|\b(?:NAME|VERSION|NNNN|X)\b/;

export interface Citation {
  file: string;
  line: number;
  cited: string;
}

function walk(root: string, dir: string, keep: (rel: string) => boolean, out: string[]): void {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return;
  for (const name of readdirSync(abs)) {
    const rel = dir ? `${dir}/${name}` : name;
    if (name.startsWith(".") || NOT_OURS.some((p) => `${rel}/`.startsWith(p))) continue;
    if (statSync(path.join(root, rel)).isDirectory()) walk(root, rel, keep, out);
    else if (keep(rel)) out.push(rel);
  }
}

/** The files whose citations are checked: code under CODE_ROOTS, and every Markdown page outside the excluded copies. */
export function citingFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of CODE_ROOTS) walk(root, dir, (f) => CODE_FILE.test(f), out);
  for (const dir of [...CODE_ROOTS, "docs", "integrations", "recordings", "contracts"]) walk(root, dir, (f) => f.endsWith(".md"), out);
  for (const f of readdirSync(root)) if (f.endsWith(".md")) out.push(f);
  return [...new Set(out)].sort();
}

/** The comment text of a source file, line by line (code replaced by nothing, so line numbers hold). */
function commentLines(text: string, python: boolean): string[] {
  if (python) return text.split("\n").map((l) => (/#/.test(l) ? l.slice(l.indexOf("#")) : ""));
  const out: string[] = [];
  let inBlock = false;
  for (const line of text.split("\n")) {
    let comment = "";
    let rest = line;
    while (rest.length > 0) {
      if (inBlock) {
        const end = rest.indexOf("*/");
        comment += ` ${end === -1 ? rest : rest.slice(0, end)}`;
        if (end === -1) rest = "";
        else {
          inBlock = false;
          rest = rest.slice(end + 2);
        }
        continue;
      }
      // skip string literals so a `//` inside one is not a comment
      const m = /(["'`])(?:\\.|(?!\1).)*\1|\/\/|\/\*/.exec(rest);
      if (!m) break;
      if (m[0] === "//") {
        comment += ` ${rest.slice(m.index + 2)}`;
        break;
      }
      if (m[0] === "/*") {
        inBlock = true;
        rest = rest.slice(m.index + 2);
        continue;
      }
      rest = rest.slice(m.index + m[0].length);
    }
    out.push(comment);
  }
  return out;
}

/** The prose lines of a Markdown page: fenced blocks blanked. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((l) => {
    if (/^\s*(```|~~~)/.test(l)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : l;
  });
}

export function citationsIn(root: string, file: string): Citation[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const markdown = file.endsWith(".md");
  const lines = markdown ? proseLines(text) : commentLines(text, file.endsWith(".py"));
  const out: Citation[] = [];
  lines.forEach((l, i) => {
    const seen = new Set<string>();
    const add = (cited: string) => {
      const c = cited.replace(/[.,:;]+$/, "");
      if (!c || seen.has(c) || PLACEHOLDER.test(c) || /^[a-z][\w+.-]*:/.test(c)) return;
      seen.add(c);
      out.push({ file, line: i + 1, cited: c });
    };
    if (markdown) for (const m of l.matchAll(LINK)) add(m[1]!);
    // the label of a link to another site names that site's file
    const own = l.replace(/\[[^\]]*\]\((?:https?:)[^)]*\)/g, (x) => " ".repeat(x.length));
    // a line about trycua/cua names its files by their bare names
    const upstream = /trycua\/cua\b/.test(own);
    for (const m of own.matchAll(CITED)) {
      // a URL's path (github.com/…/docs/x.md) cites another repository
      if (/(?:https?:\/\/|www\.)\S*$/.test(own.slice(0, m.index))) continue;
      // a prefix of a family of paths (`off-path-{cli,mcp}`, `xvfb-07…`) is not one file
      if (/^[{…]/.test(own.slice(m.index + m[0].length))) continue;
      if (upstream && !m[0].includes("/")) continue;
      add(m[0]);
    }
  });
  return out;
}

/** Whether the repository holds what a citation names, from its root or from the citing file's folder. */
export function resolves(root: string, c: Citation): boolean {
  // a decision by its number: `docs/decisions/0131` is `docs/decisions/0131-….md`
  const decision = /^docs\/decisions\/(\d{4})$/.exec(c.cited);
  if (decision) return readdirSync(path.join(root, "docs/decisions")).some((f) => f.startsWith(`${decision[1]}-`) && f.endsWith(".md"));
  const candidates = [c.cited, path.posix.join(path.posix.dirname(c.file), c.cited)];
  // a compiled name for a source file: a `.js` under src/ is its `.ts`
  for (const p of [...candidates]) if (/\.js$/.test(p)) candidates.push(p.replace(/\.js$/, ".ts"));
  return candidates.some((p) => !p.startsWith("..") && existsSync(path.join(root, p)));
}

export function missingCitations(root: string): Citation[] {
  return citingFiles(root).flatMap((f) => citationsIn(root, f).filter((c) => !resolves(root, c)));
}
