/** JUnit XML, the report format CI systems read: suites of test cases, each passed, failed or skipped. */

export interface JunitCase {
  name: string;
  classname?: string | undefined;
  /** Seconds. */
  time?: number | undefined;
  failure?: { message: string; type?: string | undefined; details?: string | undefined } | undefined;
  skipped?: string | undefined;
}

export interface JunitSuite {
  name: string;
  cases: JunitCase[];
  time?: number;
}

/** Renders a `<testsuites>` document. Pure: the caller writes it. */
export function renderJunit(options: { name: string; suites: JunitSuite[] }): string {
  const count = (s: JunitSuite, pick: (c: JunitCase) => unknown) => s.cases.filter(pick).length;
  const total = (pick: (c: JunitCase) => unknown) => options.suites.reduce((n, s) => n + count(s, pick), 0);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${esc(options.name)}" tests="${total(() => true)}" failures="${total((c) => c.failure)}" skipped="${total((c) => c.skipped !== undefined)}">`,
  ];
  for (const suite of options.suites) {
    const time = suite.time !== undefined ? ` time="${suite.time.toFixed(3)}"` : "";
    lines.push(
      `  <testsuite name="${esc(suite.name)}" tests="${suite.cases.length}" failures="${count(suite, (c) => c.failure)}" errors="0" skipped="${count(suite, (c) => c.skipped !== undefined)}"${time}>`,
    );
    for (const c of suite.cases) {
      const attrs = `name="${esc(c.name)}" classname="${esc(c.classname ?? suite.name)}"${c.time !== undefined ? ` time="${c.time.toFixed(3)}"` : ""}`;
      if (!c.failure && c.skipped === undefined) {
        lines.push(`    <testcase ${attrs}/>`);
        continue;
      }
      lines.push(`    <testcase ${attrs}>`);
      if (c.failure) {
        const type = c.failure.type ? ` type="${esc(c.failure.type)}"` : "";
        lines.push(`      <failure message="${esc(c.failure.message)}"${type}>${esc(c.failure.details ?? c.failure.message)}</failure>`);
      } else lines.push(`      <skipped message="${esc(c.skipped ?? "")}"/>`);
      lines.push(`    </testcase>`);
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return `${lines.join("\n")}\n`;
}

/** Escapes text for an XML attribute or element, dropping characters XML 1.0 cannot carry. */
function esc(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}
