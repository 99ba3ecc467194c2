import { placeholderFor, REDACTION_KINDS } from "#src/cassette/index.js";

const PLACEHOLDER = /«redacted:[a-z]+:[0-9a-f]{8}»/g;

/**
 * The secrets a user hands back (`--secret VALUE`) for the placeholders redaction left in a
 * recording. A placeholder names its secret by hash, so a value is used only where its hash matches:
 * a wrong value is never typed.
 */
export interface Unredactor {
  /** The value with every placeholder whose secret is known replaced by it (in every string, at any depth). */
  apply(value: unknown): unknown;
  /** Placeholders in the text that no given secret matches. */
  unknown(text: string): string[];
}

export function createUnredactor(secrets: readonly string[]): Unredactor {
  const byPlaceholder = new Map<string, string>();
  for (const secret of secrets) for (const kind of REDACTION_KINDS) byPlaceholder.set(placeholderFor(kind, secret), secret);
  const swap = (text: string) => text.replace(PLACEHOLDER, (p) => byPlaceholder.get(p) ?? p);
  const apply = (value: unknown): unknown => {
    if (typeof value === "string") return swap(value);
    if (Array.isArray(value)) return value.map(apply);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, apply(v)]));
    return value;
  };
  return {
    apply,
    unknown: (text) => [...new Set(text.match(PLACEHOLDER) ?? [])].filter((p) => !byPlaceholder.has(p)),
  };
}
