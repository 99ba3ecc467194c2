#!/usr/bin/env node
// Writes docs/decisions/README.md, the index of the decisions: number, title, the first sentence of
// each record as its summary, and its status (a record that says "Superseded by NNNN" is
// superseded). Run it after adding a decision; test/docs/citations.test.ts fails while one is missing.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const DIR = path.join(import.meta.dirname, "..", "docs", "decisions");
const MAX = 180;

/** The decisions in number order: `{ number, file, title, summary, supersededBy }`. */
export function decisions(dir = DIR) {
  return readdirSync(dir)
    .filter((f) => /^\d{4}-.*\.md$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(dir, file), "utf8");
      const [heading, ...rest] = text.split("\n");
      const number = file.slice(0, 4);
      const title = heading.replace(/^#\s*\d{4}\s*(?:—|-|:)?\s*/, "").trim();
      // paragraphs outside fenced blocks; the first one in prose (not a list, table or quote)
      const paragraphs = [];
      let current = [];
      let fenced = false;
      for (const line of rest) {
        if (/^\s*```/.test(line)) fenced = !fenced;
        if (fenced || /^\s*```/.test(line) || !line.trim()) {
          if (current.length) paragraphs.push(current);
          current = [];
        } else current.push(line.trim());
      }
      if (current.length) paragraphs.push(current);
      const paragraph = paragraphs.find((p) => !/^(#|\||- |\* |\d+\. |>)/.test(p[0])) ?? [title];
      const prose = paragraph
        .join(" ")
        .replace(/^\*\*Superseded by \d{4}\*\*[^.]*\.\s*/, "")
        .replace(/^\*\*[A-Z][a-z]+\.?\*\*\.?\s*/, "");
      const sentence = /^.*?[.](?=\s|$)/.exec(prose)?.[0] ?? prose;
      const summary = sentence.length > MAX ? `${sentence.slice(0, MAX).replace(/\s+\S*$/, "")} …` : sentence;
      const supersededBy = /\*\*Superseded by (\d{4})\*\*/.exec(text)?.[1];
      return { number, file, title, summary, supersededBy };
    });
}

export function renderIndex(list) {
  const byNumber = new Map(list.map((d) => [d.number, d]));
  const rows = list.map((d) => {
    const later = d.supersededBy && byNumber.get(d.supersededBy);
    const status = d.supersededBy ? `superseded by ${later ? `[${d.supersededBy}](${later.file})` : d.supersededBy}` : "accepted";
    const cell = (s) => s.replace(/\|/g, "\\|");
    return `| [${d.number}](${d.file}) | ${cell(d.title)} | ${cell(d.summary)} | ${status} |`;
  });
  return [
    "# Decisions",
    "",
    "One record per decision (context, decision, consequences), numbered in the order they were taken.",
    "The summary is each record's first sentence; a record stays after it is superseded, marked so.",
    "`node scripts/adr-index.mjs` rewrites this index, and `test/docs/citations.test.ts` fails while",
    "a record is missing from it.",
    "",
    "| # | decision | summary | status |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(path.join(DIR, "README.md"), renderIndex(decisions()));
}
