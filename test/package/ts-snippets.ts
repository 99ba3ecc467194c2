// The ```ts blocks of README.md and docs/*.md, each a module a user could paste into a file of
// their project. A snippet that uses a name the page leaves to the reader gets a declaration of it
// (typed with the package's own exports) before it.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

const GIVEN: Record<string, string> = {
  "docs/invariants.md": 'import type { ReplayLogEntry } from "cua-contract/replay";\ndeclare const entries: ReplayLogEntry[];\n',
  "docs/testing.md": 'import type { Driver } from "cua-contract/harness";\ndeclare function openButtonBoxes(driver: Driver): Promise<unknown>;\n',
};

export interface TsSnippet {
  name: string;
  source: string;
}

export function tsSnippets(root: string): TsSnippet[] {
  const docs = existsSync(path.join(root, "docs"))
    ? readdirSync(path.join(root, "docs"))
        .filter((f) => f.endsWith(".md"))
        .sort()
        .map((f) => `docs/${f}`)
    : [];
  return ["README.md", ...docs].flatMap((file) => {
    const lines = readFileSync(path.join(root, file), "utf8").split("\n");
    const out: TsSnippet[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
      const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
      const body = lines.slice(i + 1, end).join("\n");
      out.push({ name: `${file.replace(/[/.]/g, "-")}-${i + 1}`, source: `${GIVEN[file] ?? ""}${body}\nexport {};\n` });
      i = end;
    }
    return out;
  });
}
