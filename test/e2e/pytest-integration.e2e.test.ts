// The pytest integration's own tests (standard library unittest) and the pytest example, run from
// `npm test`. pytest comes with the machine's python3; Debian's python3-pytest serves /usr/bin/python3.
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";

const candidates = ["python3", "/usr/bin/python3"];
let pytestPython: string | undefined;
for (const python of candidates) {
  const r = await execa(python, ["-m", "pytest", "--version"], { reject: false });
  if (r.exitCode === 0) {
    pytestPython = python;
    break;
  }
}
if (!pytestPython) console.warn("\n!!! SKIPPING examples/pytest: no python3 with pytest (apt-get install python3-pytest).\n");

describe("integrations/pytest", () => {
  it("passes its unittest suite", { timeout: 120_000 }, async () => {
    const r = await execa("python3", ["-m", "unittest", "discover", "-s", "integrations/pytest/tests", "-v"], { cwd: repoRoot, reject: false, all: true });
    expect(r.exitCode, String(r.all)).toBe(0);
    expect(String(r.all)).toMatch(/Ran \d+ tests in [\d.]+s\n\nOK/);
    if (pytestPython === "python3") expect(String(r.all)).not.toMatch(/skipped .pytest is not installed/); // the plugin tests ran
  });

  it.skipIf(!pytestPython)("runs examples/pytest: replay, a fault, a caught bug (and a fresh recording on a desktop)", { timeout: 240_000 }, async () => {
    const r = await execa(pytestPython!, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "examples/pytest"], {
      cwd: repoRoot,
      reject: false,
      all: true,
      env: { CUA_CONTRACT_MODE: "replay" },
    });
    expect(r.exitCode, String(r.all)).toBe(0);
    expect(String(r.all)).toMatch(/\b[34] passed\b/);
  });
});
