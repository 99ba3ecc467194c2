import { describe, expect, it } from "vitest";
import { renderJunit } from "./junit.js";

describe("renderJunit", () => {
  it("counts cases, failures and skips per suite and overall, escaping text", () => {
    const xml = renderJunit({
      name: "gate",
      suites: [
        {
          name: "contract",
          cases: [
            { name: "tool click" },
            { name: "argv call --screenshot-out-file", failure: { message: 'driver CLI is missing: call "--screenshot-out-file" <&>' } },
            { name: "version", skipped: "version 0.28.2 is outside 0.21.x" },
          ],
        },
        { name: "recordings", cases: [{ name: "a\u0001b", time: 0.5 }] },
      ],
    });
    expect(xml).toContain('<testsuites name="gate" tests="4" failures="1" skipped="1">');
    expect(xml).toContain('<testsuite name="contract" tests="3" failures="1" errors="0" skipped="1">');
    expect(xml).toContain("driver CLI is missing: call &quot;--screenshot-out-file&quot; &lt;&amp;&gt;");
    expect(xml).toContain('<testcase name="ab" classname="recordings" time="0.500"/>');
    expect(xml).toContain('<skipped message="version 0.28.2 is outside 0.21.x"/>');
  });
});
