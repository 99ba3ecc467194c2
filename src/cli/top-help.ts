import type { CommandEntry } from "./command.js";

/** `cua-contract --help` from the command list alone (no command module, no yargs), laid out as yargs lays out its own. */
export function renderTopHelp(options: { script: string; tagline: string; commands: readonly CommandEntry[]; width: number }): string {
  const { script, width } = options;
  const usages = options.commands.map((c) => `${script} ${c.command}`);
  const column = Math.max(...usages.map((u) => u.length)) + 4;
  const lines = [`${script} <command> [options]`, "", options.tagline, "", "Commands:"];
  options.commands.forEach((c, i) => {
    const text = wrapWords(c.describe, Math.max(20, width - column));
    lines.push(`  ${usages[i]!.padEnd(column - 2)}${text[0] ?? ""}`, ...text.slice(1).map((t) => `${" ".repeat(column)}${t}`));
  });
  const flags: Array<[string, string]> = [
    ["--version", "Show version number"],
    ["--help", "Show help"],
  ];
  lines.push("", "Options:");
  for (const [flag, text] of flags) {
    const left = `  ${flag.padEnd(9)}  ${text}`;
    lines.push(`${left}${"[boolean]".padStart(Math.max(1, width - left.length))}`);
  }
  return `${lines.join("\n")}\n`;
}

function wrapWords(text: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
