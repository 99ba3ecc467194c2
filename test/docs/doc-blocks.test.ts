import { describe, expect, it } from "vitest";
import { extractBlocks, shows, splitCommands } from "./doc-blocks.js";

const md = [
  "# Title",
  "",
  "```sh",
  "node a.js --x \\",
  "  --y   # trailing prose",
  "# exit status 1",
  "sh -c 'one",
  "two'",
  "# stderr: bad … thing",
  "#   more",
  "cat > p.json <<'JSON'",
  "{ }",
  "JSON",
  "```",
  "",
  "prints",
  "",
  "```",
  "first line",
  "second … line",
  "```",
  "",
  '<!-- docs-test: slow; not "npm test" (the suite itself) -->',
  "```bash",
  "npm ci && npm test",
  "npm start",
  "```",
  "```js",
  "ignored()",
  "```",
  "```sh slow",
  "echo hi",
  "```",
].join("\n");

describe("docs' shell blocks", () => {
  const blocks = extractBlocks("x.md", md);

  it("splits commands at newlines outside quotes, continuations and here-documents, keeping their doc line", () => {
    expect(blocks.map((b) => [b.line, b.slow])).toEqual([
      [3, false],
      [24, true],
      [31, true],
    ]);
    expect(blocks[0]!.commands.map((c) => [c.line, c.text])).toEqual([
      [4, "node a.js --x \\\n  --y   # trailing prose"],
      [7, "sh -c 'one\ntwo'"],
      [11, "cat > p.json <<'JSON'\n{ }\nJSON"],
    ]);
  });

  it("reads exit status, shown stderr (with continuation) and a following 'prints' block as expectations", () => {
    const [a, b, c] = blocks[0]!.commands;
    expect(a).toMatchObject({ exit: 1, stdout: [], stderr: [] });
    expect(b).toMatchObject({ exit: 0, stderr: ["bad … thing", "more"] });
    expect(c!.stdout).toEqual(["first line", "second … line"]);
  });

  it("marks commands an annotation excludes, naming why", () => {
    expect(blocks[1]!.commands.map((c) => c.skipped)).toEqual(['not run: contains "npm test" (x.md:24 annotation)', undefined]);
  });

  it("… stands for anything and whitespace runs compare equal; order matters", () => {
    expect(shows("a  big\n  bad thing happened", "big … thing")).toBe(true);
    expect(shows("thing then big", "big … thing")).toBe(false);
    expect(shows("nothing here", "absent")).toBe(false);
  });

  it("a quote left open runs to the end of the block as one command", () => {
    expect(splitCommands(["echo 'never closed", "echo next"], 1)).toHaveLength(1);
  });
});
