import type { CheckResult, ScenarioResult } from "#src/schema/check-result.js";
import type { JunitSuite } from "#src/util/junit.js";

/** The human line for one scenario, and its failures indented beneath. */
export function renderScenarioLine(s: ScenarioResult, color: boolean): string {
  const mark = s.passed ? paint("✓", 32, color) : paint("✗", 31, color);
  const lines = [`${mark} ${s.id}  ${s.title} (${Math.round(s.duration_ms)} ms)`];
  for (const f of s.failures) lines.push(`    ${f.message}`);
  return `${lines.join("\n")}\n`;
}

export function renderCheckSummary(r: CheckResult, color: boolean): string {
  const total = r.passed + r.failed;
  const text = `${r.passed} of ${total} scenario${total === 1 ? "" : "s"} passed with the ${r.harness} harness${r.failed ? `; ${r.failed} failed` : ""}`;
  return `${paint(text, r.failed ? 31 : 32, color)}\n`;
}

/** One JUnit suite per check run, one case per scenario. */
export function checkJunitSuites(r: CheckResult): JunitSuite[] {
  return [
    {
      name: `cua-contract check (${r.harness})`,
      time: r.duration_ms / 1000,
      cases: r.scenarios.map((s) => ({
        name: s.id,
        classname: "scenarios",
        time: s.duration_ms / 1000,
        ...(s.passed
          ? {}
          : {
              failure: {
                message: s.failures[0]?.message ?? "failed",
                type: s.failures[0]?.kind ?? "failure",
                details: s.failures.map((f) => f.message).join("\n"),
              },
            }),
      })),
    },
  ];
}

function paint(text: string, code: number, color: boolean): string {
  return color ? `\u001b[${code}m${text}\u001b[0m` : text;
}
