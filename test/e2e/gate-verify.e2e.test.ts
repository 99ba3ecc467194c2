// `verify`: the bundled CLI recording's flow sent to the real runtime on a fresh desktop.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { missingDesktopPrograms } from "#src/desktop/programs.js";
import { runCli } from "../helpers/run-cli.js";
import { sdkUnavailable } from "../helpers/sdk-available.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const missing = await missingDesktopPrograms({ app: ["gtk3-demo"] });
if (missing.length > 0) console.warn(`\n!!! SKIPPING the verify desktop tests: ${missing.join(", ")} not found (see docs/desktop.md).\n`);
const skip028 = await sdkUnavailable("0.28.2");
if (skip028) console.warn(skip028);
// What scripts/record-fixtures.harness.mjs typed; the recording holds only its placeholder.
const TYPED = "hello from cua-contract";

describe.skipIf(missing.length > 0)("verify --desktop (real runtime under Xvfb)", () => {
  it("0.21.0 answers the recorded CLI flow as recorded; without --secret the typed text is named as not re-run exactly", { timeout: 120_000 }, async () => {
    await using dir = await tmpDir();
    const junit = path.join(dir.path, "verify.xml");
    const r = await runCli(["verify", "recordings/gtk3-demo-cli", "--driver", "sdk:0.21.0", "--desktop", "--secret", TYPED, "--json", "--junit", junit]);
    const doc = JSON.parse(String(r.stdout));
    const differing = doc.calls.filter((c: any) => c.differences.length > 0 || !c.sent);
    expect(r.exitCode, `${JSON.stringify(differing, null, 2)}\n${String(r.stderr)}`).toBe(0);
    expect(doc).toMatchObject({ ok: true, desktop: true, notSent: 0, counts: { breaking: 0, behavioural: 0 } });
    expect(doc.calls).toHaveLength(24);
    expect(doc.calls.every((c: any) => c.sent)).toBe(true);
    expect(await readFile(junit, "utf8")).toMatch(
      /<testsuite name="verify recordings\/gtk3-demo-cli against sdk:@trycua\/cua-driver@0.21.0" tests="24" failures="0"/,
    );

    const blind = await runCli(["verify", "recordings/gtk3-demo-cli", "--driver", "sdk:0.21.0", "--desktop", "--json"]);
    const typed = JSON.parse(String(blind.stdout)).calls.find((c: any) => c.label === "call type_text");
    expect(typed.notes[0]).toMatch(/^the recording holds «redacted:text:[0-9a-f]{8}» where the harness sent a secret, and no --secret matches it/);
  });

  it.skipIf(Boolean(skip028))(
    "0.28.2: names each difference with its JSON path, and --update writes a cassette 0.28.2 then answers as recorded",
    { timeout: 180_000 },
    async () => {
      await using dir = await tmpDir();
      const out = path.join(dir.path, "gtk3-demo-cli-0.28.2");
      const json = path.join(dir.path, "verify.json");
      const r = await runCli([
        "verify",
        "recordings/gtk3-demo-cli",
        "--driver",
        "sdk:0.28.2",
        "--desktop",
        "--secret",
        TYPED,
        "--update",
        out,
        "--json-out",
        json,
      ]);
      const text = String(r.stdout);
      expect(text).toContain(
        "  #3   call start_session           additive\n         additive    $.desktop_capture_authorized: $.desktop_capture_authorized is new",
      );
      expect(text).toMatch(/additive {4}\$\.elements\[\*\]\.actions: \$\.elements\[\*\]\.actions is new \(×\d+\)/);
      expect(text).toMatch(/^differences: \d+ breaking, \d+ behavioural, \d+ additive, \d+ cosmetic; 24\/24 call\(s\) sent/m);
      // the same comparison as a document: every difference has a path, and the exit code follows `ok`
      const doc = JSON.parse(await readFile(json, "utf8"));
      expect(doc.updated).toBe(out);
      expect(doc.calls).toHaveLength(24);
      for (const call of doc.calls) for (const d of call.differences) expect(d.path).toMatch(/^(\$|stdout|stderr|exit_code|--)/);
      expect(r.exitCode).toBe(doc.ok ? 0 : 1);
      const cassette = (await readFile(path.join(out, "cassette.jsonl"), "utf8")).split("\n");
      expect(JSON.parse(cassette[0]!).driver).toMatchObject({ version: "0.28.2", source: "sdk", location: "sdk:@trycua/cua-driver@0.28.2" });
      expect(cassette.join("\n")).not.toContain(TYPED);
      const again = await runCli(["verify", out, "--driver", "sdk:0.28.2", "--desktop", "--secret", TYPED, "--json"]);
      const second = JSON.parse(String(again.stdout));
      expect(second, JSON.stringify(second.calls.filter((c: any) => c.differences.length)).slice(0, 3000)).toMatchObject({
        ok: true,
        counts: { breaking: 0, behavioural: 0, additive: 0 },
      });
    },
  );
});
