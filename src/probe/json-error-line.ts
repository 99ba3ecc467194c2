/**
 * The 1-based line of the first JSON syntax error in `text`, or undefined when it parses. Node 20's
 * JSON.parse names a position for some errors only ("Unexpected token" has none), and a user fixing
 * a hand-edited contract needs the line.
 */
export function jsonErrorLine(text: string): number | undefined {
  let i = 0;
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
        const escape = /^\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(text.slice(i, i + 6));
        if (!escape) fail();
        i += escape![0].length;
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
    for (;;) {
      if (keyed) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ":") fail();
        i++;
      }
      value();
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
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined; // nested too deep to scan: no line rather than a crash
    if (!(error instanceof SyntaxAt)) throw error;
    return text.slice(0, Math.min(error.at, text.length)).split("\n").length;
  }
}

class SyntaxAt extends Error {
  constructor(readonly at: number) {
    super(`JSON syntax error at ${at}`);
  }
}
