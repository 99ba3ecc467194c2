// `verify` without a desktop: the bundled CLI recording's read-only calls sent to the real runtime
// in this process (the runs on a fresh desktop are in gate-verify.e2e.test.ts, `npm run test:desktop`).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

// without a desktop the runtime runs in this process; on one it runs in a spawned CLI (its X connections must not outlive the desktop)
describe("verify without a desktop", () => {
  it("sends the read-only calls, says per call why each mutation was not sent, and refuses --update", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const written = path.join(dir.path, "verify.json");
    const r = await runCliInProcess(["verify", "recordings/gtk3-demo-cli", "--driver", "sdk:0.21.0", "--json", "--json-out", written], {
      env: { DISPLAY: "" },
    });
    const doc = JSON.parse(String(r.stdout));
    expect(await readFile(written, "utf8")).toBe(`${String(r.stdout)}\n`); // the captured stdout loses its last newline, as execa's does
    const byLabel = (label: string) => doc.calls.filter((c: any) => c.label === label);
    expect(byLabel("call type_text")[0]).toMatchObject({ sent: false, readOnly: false });
    expect(byLabel("call type_text")[0].notes).toContainEqual(expect.stringMatching(/^not sent: type_text changes the desktop, and without --desktop/));
    expect(byLabel("call list_windows").every((c: any) => c.sent)).toBe(true);
    expect(doc.notSent).toBe(9);
    const upd = await runCliInProcess(["verify", "recordings/gtk3-demo-cli", "--driver", "sdk:0.21.0", "--update", path.join(dir.path, "new")], {
      env: { DISPLAY: "" },
    });
    expect(upd.exitCode).toBe(2);
    expect(upd.stderr).toContain("--update needs every call sent, and 9 mutating call(s) were not (no --desktop)");
  });

  it("rejects a driver it cannot drive with exit 2", async () => {
    const r = await runCliInProcess(["verify", "recordings/gtk3-demo-cli", "--driver", "/usr/bin/cua-driver"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('verify drives the published runtime in process; "/usr/bin/cua-driver" is not sdk[:VERSION]');
  });
});
