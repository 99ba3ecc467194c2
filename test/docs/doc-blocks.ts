// Shell blocks of the project's markdown, as a newcomer would paste them: one command at a time,
// with what the doc says each command prints and exits with.
//
// A block is a ```sh / ```bash / ```shell fence. Annotations, in the fence's info string
// (```sh slow) or in an HTML comment on the line above (<!-- docs-test: slow -->):
//   slow                 run only by `npm run test:docs` (a desktop, the benchmarks, a long fuzz)
//   not "TEXT" (why)     commands containing TEXT are shown, never run (the suite running itself)
// Inside a block, comment lines right after a command state what it does:
//   # exit status N      the command exits N (default 0)
//   # stdout: TEXT       stdout contains TEXT; `…` stands for anything; indented `#   more`
//   # stderr: TEXT       lines continue TEXT, each shown in order (lines between may be left out)
// A bare fence after a block, introduced by a paragraph starting "prints" (or anywhere later,
// marked <!-- docs-test: output -->), is the stdout of that block's last command, its lines in
// order (`…` again stands for anything).

export interface DocCommand {
  /** 1-based line in the markdown file where the command starts. */
  line: number;
  text: string;
  exit: number;
  stdout: string[];
  stderr: string[];
  skipped?: string;
}

export interface DocBlock {
  file: string;
  line: number;
  slow: boolean;
  commands: DocCommand[];
}

const SHELL = new Set(["sh", "bash", "shell"]);

export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const end = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence) && l.trim().replace(/[`~]/g, "") === "");
    const close = end === -1 ? lines.length : end;
    const body = lines.slice(i + 1, close);
    const lang = open[3]!.toLowerCase();
    if (SHELL.has(lang)) {
      const notes = `${open[4]} ${annotationAbove(lines, i)}`;
      const skips = [...notes.matchAll(/not\s+"([^"]+)"/g)].map((m) => m[1]!);
      const commands = splitCommands(body, i + 2).map((c) => {
        const skip = skips.find((s) => c.text.includes(s));
        return skip ? { ...c, skipped: `not run: contains "${skip}" (${file}:${i + 1} annotation)` } : c;
      });
      blocks.push({ file, line: i + 1, slow: /(^|[\s;,])slow\b/.test(notes.replace(/not\s+"[^"]*"\s*\([^)]*\)/g, "")), commands });
    } else if (lang === "" || lang === "text") {
      const previous = blocks.at(-1);
      const between = previous
        ? lines
            .slice(lastFenceEnd(lines, previous.line - 1) + 1, i)
            .join("\n")
            .trim()
        : "";
      const output = /(^|[\s;,])output\b/.test(annotationAbove(lines, i));
      if (previous && (output || /^prints\b/i.test(between)) && previous.commands.length > 0) {
        const last = previous.commands.at(-1)!;
        last.stdout.push(...body.filter((l) => l.trim() !== ""));
      }
    }
    i = close;
  }
  return blocks;
}

function annotationAbove(lines: string[], fenceIndex: number): string {
  let j = fenceIndex - 1;
  while (j >= 0 && lines[j]!.trim() === "") j--;
  const m = j >= 0 ? /^<!--\s*docs-test:(.*)-->\s*$/.exec(lines[j]!.trim()) : null;
  return m ? m[1]!.trim() : "";
}

function lastFenceEnd(lines: string[], openIndex: number): number {
  const fence = /^(\s*)(`{3,}|~{3,})/.exec(lines[openIndex]!)![2]!;
  const end = lines.findIndex((l, j) => j > openIndex && l.trim().startsWith(fence) && l.trim().replace(/[`~]/g, "") === "");
  return end === -1 ? lines.length : end;
}

/**
 * Splits a block into commands: a command ends at a newline outside quotes, not after a
 * backslash and not inside a here-document. Comment lines attach to the command before them.
 */
export function splitCommands(body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  let current: string[] = [];
  let start = 0;
  let quote: "'" | '"' | undefined;
  let heredoc: string | undefined;
  let lastField: "stdout" | "stderr" | undefined;
  const flush = () => {
    if (current.length > 0) commands.push({ line: firstLine + start, text: current.join("\n"), exit: 0, stdout: [], stderr: [] });
    current = [];
  };
  body.forEach((raw, index) => {
    if (current.length === 0 && !quote && !heredoc) {
      const trimmed = raw.trim();
      if (trimmed === "") return;
      if (trimmed.startsWith("#")) {
        const last = commands.at(-1);
        const comment = trimmed.replace(/^#\s?/, "");
        const exit = /^exit status (\d+)\s*$/.exec(comment);
        const shown = /^(stdout|stderr):\s*(.*)$/.exec(comment);
        if (last && exit) {
          last.exit = Number(exit[1]);
          lastField = undefined;
        } else if (last && shown) {
          lastField = shown[1] as "stdout" | "stderr";
          last[lastField].push(shown[2]!);
        } else if (last && lastField && /^#\s{2,}\S/.test(trimmed)) {
          const shownSoFar = last[lastField];
          shownSoFar.push(comment.trim());
        } else lastField = undefined;
        return;
      }
      start = index;
      lastField = undefined;
    }
    current.push(raw);
    if (heredoc) {
      if (raw === heredoc) heredoc = undefined;
      else return;
    } else {
      const scanned = scan(raw, quote);
      quote = scanned.quote;
      if (!quote && scanned.heredoc) heredoc = scanned.heredoc;
      if (quote || heredoc || scanned.continues) return;
    }
    if (!heredoc) flush();
  });
  flush();
  return commands;
}

function scan(line: string, open: "'" | '"' | undefined): { quote: "'" | '"' | undefined; heredoc?: string | undefined; continues: boolean } {
  let quote = open;
  let heredoc: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (quote === '"') {
      if (c === "\\") i++;
      else if (c === '"') quote = undefined;
    } else if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) break;
    else if (c === "<" && line[i + 1] === "<" && line[i + 2] !== "<") {
      const m = /^<<-?\s*(['"]?)(\w+)\1/.exec(line.slice(i));
      if (m) heredoc = m[2];
    }
  }
  const continues = !quote && /\\$/.test(line.replace(/\s+#.*$/, "").trimEnd()) && !/\\\\$/.test(line.trimEnd());
  return { quote, heredoc, continues };
}

/** Does `actual` show `expected`? `…` stands for anything; whitespace runs compare equal. */
export function shows(actual: string, expected: string): boolean {
  const squash = (s: string) => s.replace(/\s+/g, " ").trim();
  const pieces = expected.split("…").map(squash).filter(Boolean);
  let at = 0;
  const text = squash(actual);
  for (const piece of pieces) {
    const found = text.indexOf(piece, at);
    if (found === -1) return false;
    at = found + piece.length;
  }
  return true;
}
