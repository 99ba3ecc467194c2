/**
 * The 1-based line of the first JSON syntax error in `text`, or undefined when it parses. Node 20's
 * JSON.parse names a position for some errors only ("Unexpected token" has none), and a user fixing
 * a hand-edited contract needs the line.
 */
export function jsonErrorLine(text: string): number | undefined {
  return scanJson(text).errorLine;
}

/**
 * The 1-based line where the value at `path` (object keys and array indexes, as zod reports an
 * issue's path) starts in a valid JSON `text`: a field's line for a validation message.
 * For a missing key, the line of the object that lacks it.
 */
export function jsonPathLine(text: string, path: readonly PropertyKey[]): number | undefined {
  const want = path.map(String).join("\u0000");
  let best: { depth: number; at: number } | undefined;
  scanJson(text, (at, valuePath) => {
    const joined = valuePath.join("\u0000");
    const prefix = valuePath.length === 0 || want === joined || want.startsWith(`${joined}\u0000`);
    if (prefix && (!best || valuePath.length > best.depth)) best = { depth: valuePath.length, at };
  });
  return best ? text.slice(0, best.at).split("\n").length : undefined;
}

function scanJson(text: string, onValue?: (at: number, path: string[]) => void): { errorLine?: number } {
  let i = 0;
  const path: string[] = [];
  const fail = (): never => {
    throw new SyntaxAt(i);
  };
  const space = () => {
    while (i < text.length && " \t\r\n".includes(text[i]!)) i++;
  };
  const literal = (word: string) => (text.startsWith(word, i) ? void (i += word.length) : fail());
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === "\\") {
        const escapeMatch = /^\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(text.slice(i, i + 6));
        if (!escapeMatch) fail();
        i += escapeMatch![0].length;
      } else i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === "") fail();
    i += match![0].length;
  };
  const value = (): void => {
    space();
    onValue?.(i, [...path]);
    const c = text[i];
    if (c === "{") return container("}", true);
    if (c === "[") return container("]", false);
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    return number();
  };
  const container = (close: string, keyed: boolean): void => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (let index = 0; ; index++) {
      let key = String(index);
      if (keyed) {
        space();
        if (text[i] !== '"') fail();
        const start = i;
        string();
        key = onValue ? String(JSON.parse(text.slice(start, i))) : "";
        space();
        if (text[i] !== ":") fail();
        i++;
      }
      path.push(key);
      value();
      path.pop();
      space();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) return void i++;
      fail();
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return {};
  } catch (error) {
    if (error instanceof RangeError) return {}; // nested too deep to scan: no line rather than a crash
    if (!(error instanceof SyntaxAt)) throw error;
    return { errorLine: text.slice(0, Math.min(error.at, text.length)).split("\n").length };
  }
}

class SyntaxAt extends Error {
  constructor(readonly at: number) {
    super(`JSON syntax error at ${at}`);
  }
}
