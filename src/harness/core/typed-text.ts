import { PASS, type GuardResult } from "./guard-result.js";

const SH = String.raw`(?:sudo\s+)?(?:\S*/)?(?:ba|z|da|k|fi)?sh\b`;

/** Destructive shell input, matched against whitespace-folded text (case-insensitive). */
export const BLOCKED_TEXT_PATTERNS: readonly { name: string; pattern: RegExp }[] = [
  { name: "curl piped to a shell", pattern: new RegExp(String.raw`\bcurl\b[^|]*\|\s*${SH}`, "i") },
  { name: "wget piped to a shell", pattern: new RegExp(String.raw`\bwget\b[^|]*\|\s*${SH}`, "i") },
  { name: "download run by a shell", pattern: new RegExp(String.raw`${SH}\s+(?:-c\s+)?["']?(?:\$\(|<\(|\`)\s*(?:curl|wget)\b`, "i") },
  { name: "sudo rm -r/-f", pattern: /\bsudo\s+rm\s+(?:-\S*\s+)*-[a-z]*[rf]/i },
  {
    name: "rm -rf of the root or home",
    pattern: /\brm\s+(?:-\S+\s+)*-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\s+(?:-\S+\s+)*(?:\/|\/\*|~\/?|\$home\/?)(?=\s|$|[;&|])/i,
  },
  { name: "rm -r -f of the root or home", pattern: /\brm\s+(?:-\S+\s+)*(?:-r|--recursive)\s+(?:-\S+\s+)*(?:-f|--force)\s+(?:\/|\/\*|~\/?)(?=\s|$|[;&|])/i },
  { name: "fork bomb", pattern: /([\w:.]+)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}/ },
  { name: "dd onto a device", pattern: /\bdd\b[^;&|]*\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b)/i },
  { name: "mkfs", pattern: /\bmkfs(?:\.\w+)?\b/i },
];

/** Folds every run of whitespace (newlines, tabs, NBSP) to one space and drops zero-width characters and line continuations. */
export function foldWhitespace(text: string): string {
  return text
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, "")
    .replace(/\\\r?\n/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Blocks destructive shell input, whatever spacing or line breaks it is typed with. */
export function checkTypedText(text: string): GuardResult {
  const folded = foldWhitespace(text);
  const hit = BLOCKED_TEXT_PATTERNS.find((p) => p.pattern.test(folded));
  if (!hit) return PASS;
  return {
    ok: false,
    code: "blocked_typed_text",
    note: `Blocked typed text (${hit.name}): destructive shell input is never typed. Do the work another way.`,
  };
}
