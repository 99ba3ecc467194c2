import { hasFlag } from "#src/driver/catalogue.js";
import { sha256Hex } from "./frame-ref.js";

/** What a placeholder stood for: typed text, a set value, clipboard text, a bearer token, a `--redact` match, a credential handle. */
export const REDACTION_KINDS = ["text", "value", "clipboard", "bearer", "pattern", "credential"] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

export interface RedactionSettings {
  enabled: boolean;
  /** Extra patterns (`--redact REGEX`, JavaScript syntax); every match becomes a placeholder. */
  patterns?: string[] | undefined;
}

/** `«redacted:<kind>:<sha256-8>»`: the same secret always gives the same placeholder, so matching still works. */
export function placeholderFor(kind: RedactionKind, secret: string): string {
  return `«redacted:${kind}:${sha256Hex(secret).slice(0, 8)}»`;
}

// Which argument of which tool holds a secret the harness types or puts on the clipboard.
const SECRET_ARGS: Record<string, { key: string; kind: RedactionKind }> = {
  type_text: { key: "text", kind: "text" },
  type_text_chars: { key: "text", kind: "text" },
  browser_type: { key: "text", kind: "text" },
  set_value: { key: "value", kind: "value" },
  clipboard_write: { key: "text", kind: "clipboard" },
};

/** A key that holds a credential handle (`handle`, `credential_handle`) in a credential tool's arguments or result. */
const HANDLE_KEY = /(?:^|_)handle$/;

/** Every string under a handle key, at any depth. */
function handlesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) handlesIn(v, out);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === "string" && HANDLE_KEY.test(key)) out.push(v);
      else handlesIn(v, out);
    }
  }
  return out;
}

/** Below this length a secret is replaced only where it is a whole value, never inside other text. */
const MIN_SUBSTRING = 4;
const BASE64_LITERAL = /^[A-Za-z0-9+/]{64,}={0,2}$/;
const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/g;
const BEARER = /(Bearer\s+)([A-Za-z0-9\-._~+/]+=*)/g;
/** A placeholder this redactor (or the recorder) already wrote: never learned as a secret nor redacted again. */
const PLACEHOLDER = /(«redacted:[a-z]+:[0-9a-f]{8}»)/;

const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER.source}$`);

export function isPlaceholder(text: string): boolean {
  return WHOLE_PLACEHOLDER.test(text);
}

/**
 * Redaction state for one cassette. Secrets are learned from requests (typed text, set_value values,
 * clipboard text) and responses (clipboard_read), then replaced wherever they appear afterwards.
 */
export interface Redactor {
  readonly enabled: boolean;
  /** Learns the secrets in a tool call's arguments (an object, or JSON text). */
  learnFromCall(tool: string | undefined, args: unknown): void;
  /** Learns secrets in a tool result (`structuredContent`, or the CLI's printed JSON). */
  learnFromResult(tool: string | undefined, result: unknown): void;
  /** Redacts one stored text: JSON is redacted string value by string value (so it stays valid JSON). */
  text(text: string): string;
}

/**
 * A redactor that replaces secrets in JSON string values and remembers them, so a secret is
 * redacted the same way everywhere.
 */
export function createRedactor(settings: RedactionSettings): Redactor {
  const secrets = new Map<string, RedactionKind>();
  const patterns = (settings.patterns ?? []).map((p) => new RegExp(p, "g"));
  const learn = (value: unknown, kind: RedactionKind) => {
    if (typeof value === "string" && value.length > 0 && !secrets.has(value) && !isPlaceholder(value)) secrets.set(value, kind);
  };
  const redactPlain = (s: string): string => {
    if (s.length === 0 || isPlaceholder(s)) return s;
    const whole = secrets.get(s);
    if (whole) return placeholderFor(whole, s);
    let out = s;
    for (const [secret, kind] of secrets) {
      if (secret.length >= MIN_SUBSTRING && out.includes(secret)) out = outside(out, (t) => t.split(secret).join(placeholderFor(kind, secret)));
    }
    out = outside(out, (t) => t.replace(BEARER, (_m, prefix: string, token: string) => `${prefix}${placeholderFor("bearer", token)}`));
    for (const re of patterns) out = outside(out, (t) => t.replace(re, (m) => (m.length === 0 ? m : placeholderFor("pattern", m))));
    return out;
  };
  return {
    enabled: settings.enabled,
    learnFromCall(tool, args) {
      if (!settings.enabled || !tool) return;
      const spec = SECRET_ARGS[tool];
      const credential = hasFlag(tool, "credential");
      if (!spec && !credential) return;
      const obj = typeof args === "string" ? safeParse(args) : args;
      if (!obj || typeof obj !== "object") return;
      if (spec) learn((obj as Record<string, unknown>)[spec.key], spec.kind);
      if (credential) for (const handle of handlesIn(obj)) learn(handle, "credential");
    },
    learnFromResult(tool, result) {
      if (!settings.enabled) return;
      const credential = hasFlag(tool, "credential");
      if (tool !== "clipboard_read" && !credential) return;
      const obj = typeof result === "string" ? safeParse(result) : result;
      if (!obj || typeof obj !== "object") return;
      if (credential) for (const handle of handlesIn(obj)) learn(handle, "credential");
      else learn((obj as Record<string, unknown>).text, "clipboard");
    },
    text(text) {
      if (!settings.enabled || text.length === 0) return text;
      if (safeParse(text) === undefined) return redactPlain(text);
      return text.replace(STRING_LITERAL, (literal) => {
        const inner = literal.slice(1, -1);
        if (BASE64_LITERAL.test(inner)) return literal;
        const decoded = safeParse(literal);
        if (typeof decoded !== "string") return literal;
        const redacted = redactPlain(decoded);
        return redacted === decoded ? literal : JSON.stringify(redacted);
      });
    },
  };
}

/** Applies a rewrite to the text between placeholders only, so a placeholder is never redacted again. */
function outside(text: string, rewrite: (part: string) => string): string {
  if (!text.includes("«redacted:")) return rewrite(text);
  return text
    .split(PLACEHOLDER)
    .map((part, i) => (i % 2 === 1 ? part : rewrite(part)))
    .join("");
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
