import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const contract = "contracts/drivers/cua-driver-0.21.json";
const json = (stdout: unknown) => JSON.parse(String(stdout)) as Record<string, any>;
// Generous step deadlines: a loaded CI machine can take seconds to start the fake's node process.
const slow = ["--timeout-ms", "30000"];

describe("probe --driver (fake cua-driver 0.21.0)", () => {
  it("records every read-only step and meets the shipped 0.21 contract", async () => {
    // The fake's `status` says a daemon runs on $HOME/.cache/cua-driver/cua-driver.sock; here none answers there.
    await using home = await tmpDir();
    const r = await runCliInProcess(["probe", "--driver", fake, "--contract", contract, "--json", ...slow], { env: { HOME: home.path } });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const doc = json(r.stdout);
    expect(doc).toMatchObject({ ok: true, version: "0.21.0", reachable: true, driver: { source: "binary", location: fake } });
    expect(Object.fromEntries(doc.steps.map((s: any) => [s.step, s.status]))).toEqual({
      version: "succeeded",
      manifest: "succeeded",
      list_tools: "succeeded",
      mcp_initialize: "succeeded",
      mcp_tools_list: "succeeded",
      status: "succeeded",
      metadata: "unsupported",
    });
    // No daemon to ask is not a failure of a passing probe: shown as "--", never FAIL.
    expect(doc.steps.find((s: any) => s.step === "metadata").message).toMatch(
      /^no daemon answers on .*cua-driver\.sock \(ENOENT\), so there is no metadata to read$/,
    );
    const human = await runCliInProcess(["probe", "--driver", fake, ...slow], { env: { HOME: home.path } });
    expect(String(human.stdout)).toMatch(/^ {2}-- {3}metadata .* no daemon answers on /m);
    expect(String(human.stdout)).not.toMatch(/FAIL/);
    expect(doc.tools).toHaveLength(60);
    expect(doc.tools).toContain("check_for_update");
    expect(doc.gaps.filter((g: any) => g.blocking)).toEqual([]);
  });

  it("asks a running daemon for its metadata, so the contract version is checked too", async () => {
    await using home = await tmpDir();
    const sockDir = path.join(home.path, ".cache/cua-driver");
    await mkdir(sockDir, { recursive: true });
    // A stand-in daemon answering the metadata handshake with the bytes docs/reference/cua-driver-contract.md §1.8 gives for 0.21.0.
    const answer =
      '{"ok":true,"result":{"capability_version":"1","contract_version":"0.7.0","driver_version":"0.21.0","embedded":false,"mcp_protocol_version":"2025-06-18","pid":4242,"tools_list_schema_version":"1"}}';
    const requests: string[] = [];
    const server = net.createServer((c) =>
      c.on("data", (d) => {
        requests.push(String(d));
        c.end(`${answer}\n`);
      }),
    );
    await new Promise<void>((resolve) => server.listen(path.join(sockDir, "cua-driver.sock"), resolve));
    try {
      const r = await runCliInProcess(["probe", "--driver", fake, "--contract", contract, "--json", ...slow], { env: { HOME: home.path } });
      expect(r.exitCode).toBe(0);
      const doc = json(r.stdout);
      expect(doc.steps.find((s: any) => s.step === "metadata")).toMatchObject({ status: "succeeded" });
      expect(doc.gaps).toEqual([]);
      expect(doc.items.find((i: any) => i.kind === "contract_version")).toMatchObject({ status: "passed", message: "driver contract version is 0.7.0" });
      expect(requests).toEqual(['{"method":"metadata"}\n']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("names the missing flag when the manifest lacks call --screenshot-out-file (exit 1)", async () => {
    await using dir = await tmpDir();
    const junit = path.join(dir.path, "probe.xml");
    const r = await runCliInProcess(["probe", "--driver", fake, "--contract", contract, "--json", "--junit", junit, ...slow], {
      env: { FAKE_CUA_DRIVER_MANIFEST: "drop-arg:call:--screenshot-out-file" },
    });
    expect(r.exitCode).toBe(1);
    const xml = await readFile(junit, "utf8");
    expect(xml).toMatch(/<testsuite name="contract" tests="\d+" failures="1" errors="0" skipped="1">/);
    expect(xml).toContain(
      '<testcase name="argv call --screenshot-out-file" classname="contract.argv">\n      <failure message="driver CLI is missing: call --screenshot-out-file" type="argv">',
    );
    const doc = json(r.stdout);
    expect(doc.ok).toBe(false);
    expect(doc.gaps.filter((g: any) => g.blocking)).toEqual([
      { kind: "argv", name: "call --screenshot-out-file", blocking: true, message: "driver CLI is missing: call --screenshot-out-file" },
    ]);
  });

  it("reports a driver that hangs on manifest as a timed-out step, not a crash", async () => {
    const r = await runCliInProcess(["probe", "--driver", fake, "--timeout-ms", "1500", "--contract", contract], { env: { FAKE_CUA_DRIVER_HANG: "manifest" } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/FAIL manifest +\d+ ms {2}timed out: manifest did not finish within 1500 ms/);
    expect(r.stdout).toMatch(/ok {3}mcp_tools_list/);
    expect(r.stdout).toContain(
      "FAIL driver CLI could not be checked for call --screenshot-out-file: the manifest step failed (manifest did not finish within 1500 ms)",
    );
  });

  it("reports a manifest that is not JSON as a failed step", async () => {
    const r = await runCliInProcess(["probe", "--driver", fake, "--json", ...slow], { env: { FAKE_CUA_DRIVER_MANIFEST: "non-json" } });
    expect(r.exitCode).toBe(0);
    const manifest = json(r.stdout).steps.find((s: any) => s.step === "manifest");
    expect(manifest.status).toBe("failed");
    expect(manifest.message).toMatch(/^manifest printed non-JSON: /);
  });

  it("records an older driver without manifest or MCP as findings, and checks tools by their list-tools names", async () => {
    await using dir = await tmpDir();
    const old = path.join(dir.path, "cua-driver");
    // An imitation of a pre-manifest driver: `manifest` is an implicit `call` that needs a daemon.
    await writeFile(
      old,
      [
        "#!/bin/sh",
        'case "$1" in',
        '  --version) echo "cua-driver 0.12.6" ;;',
        '  list-tools) printf "click: Click.\\nlist_windows: List windows.\\n" ;;',
        '  mcp) echo "cua-driver-rs: no Cua Driver daemon listening" >&2; exit 1 ;;',
        '  *) echo "Cua Driver daemon is not running on /tmp/x.sock." >&2; exit 1 ;;',
        "esac",
        "",
      ].join("\n"),
    );
    await chmod(old, 0o755);
    const r = await runCliInProcess(["probe", "--driver", old, "--contract", contract, "--json", ...slow]);
    expect(r.exitCode).toBe(1);
    const doc = json(r.stdout);
    expect(doc.version).toBe("0.12.6");
    expect(Object.fromEntries(doc.steps.map((s: any) => [s.step, s.status]))).toMatchObject({
      version: "succeeded",
      manifest: "unsupported",
      list_tools: "succeeded",
      mcp_initialize: "failed",
      status: "succeeded",
    });
    const blocking = doc.gaps.filter((g: any) => g.blocking).map((g: any) => g.message);
    expect(blocking).toContain(
      "driver CLI could not be checked for call --screenshot-out-file: the manifest step is unsupported (manifest exited 1: Cua Driver daemon is not running on /tmp/x.sock.)",
    );
    expect(blocking).toContain("driver tools are missing: get_window_state");
    expect(blocking).not.toContain("driver tools are missing: click");
    expect(doc.gaps.find((g: any) => g.name === "click:element_token")).toMatchObject({ blocking: false });
  });

  it("asks server/discover after tools/list and records a modern driver's eras and skill catalogue", async () => {
    await using dir = await tmpDir();
    const modern = path.join(dir.path, "cua-driver");
    // An imitation of a dual-era driver's `mcp`: legacy initialize and tools/list, then the modern methods.
    const answers = {
      initialize: { protocolVersion: "2025-06-18", serverInfo: { name: "cua-driver", version: "0.28.2" } },
      "tools/list": { tools: [{ name: "click" }] },
      "server/discover": { supportedVersions: ["2026-07-28"], capabilities: { resources: {} }, resultType: "complete" },
      "skills/list": {
        skills: [
          {
            uri: "skill://cua-driver/SKILL.md",
            frontmatter: { name: "cua-driver" },
            resources: [{ uri: "skill://cua-driver/SKILL.md", size: 3, digest: "sha256:abc" }],
          },
        ],
      },
      "resources/list": { resources: [{ uri: "skill://cua-driver/SKILL.md", size: 3 }] },
    };
    await writeFile(
      modern,
      [
        `#!${process.execPath}`,
        `const answers = ${JSON.stringify(answers)};`,
        'if (process.argv[2] === "--version") { console.log("cua-driver 0.28.2"); process.exit(0); }',
        'if (process.argv[2] !== "mcp") { console.error("not running"); process.exit(1); }',
        "const seen = [];",
        'require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {',
        "  const m = JSON.parse(line);",
        "  if (m.id === undefined) return;",
        "  seen.push(m.method);",
        '  const meta = m.params?._meta?.["io.modelcontextprotocol/protocolVersion"];',
        '  const modernOk = m.method === "initialize" || m.method === "tools/list" || meta === "2026-07-28";',
        '  const reply = answers[m.method] && modernOk ? { result: answers[m.method] } : { error: { code: -32602, message: "Missing or invalid MCP protocolVersion metadata" } };',
        '  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...reply }) + "\\n");',
        "});",
        "",
      ].join("\n"),
    );
    await chmod(modern, 0o755);
    const saved = path.join(dir.path, "probe.json");
    const r = await runCliInProcess(["probe", "--driver", modern, "--save", saved, "--json", ...slow]);
    const doc = json(r.stdout);
    expect(doc.steps.map((s: any) => `${s.step} ${s.status}`)).toEqual([
      "version succeeded",
      "manifest unsupported",
      "list_tools unsupported",
      "mcp_initialize succeeded",
      "mcp_tools_list succeeded",
      "mcp_discover succeeded",
      "mcp_skills succeeded",
      "status succeeded",
      "metadata unsupported",
    ]);
    const snapshot = JSON.parse(await readFile(saved, "utf8"));
    expect(snapshot.mcp_eras).toEqual(["legacy", "2026-07-28"]);
    expect(snapshot.discover).toEqual(answers["server/discover"]);
    expect(snapshot.skills).toEqual({
      skills: [{ uri: "skill://cua-driver/SKILL.md", name: "cua-driver" }],
      resources: [{ uri: "skill://cua-driver/SKILL.md", size: 3, digest: "sha256:abc" }],
    });
  });

  it("exits 3 when no step succeeds, 2 for a driver that is not executable or missing", async () => {
    await using dir = await tmpDir();
    const dead = path.join(dir.path, "cua-driver");
    await writeFile(dead, "#!/bin/sh\necho 'broken install' >&2\nexit 1\n");
    await chmod(dead, 0o755);
    const r = await runCliInProcess(["probe", "--driver", dead, "--timeout-ms", "3000"]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain("FAIL: the driver could not be probed at all");
    expect(r.stdout).toContain("--version exited 1: broken install");

    await chmod(dead, 0o644);
    const notExec = await runCliInProcess(["probe", "--driver", dead]);
    expect(notExec.exitCode).toBe(2);
    expect(notExec.stderr).toBe(`cua-contract: --driver: ${dead} is not executable. Run \`chmod +x ${dead}\` or point --driver at the cua-driver executable.`);
    const missing = await runCliInProcess(["probe", "--driver", path.join(dir.path, "nope")]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`--driver: ${path.join(dir.path, "nope")} does not exist.`);
  });

  it("saves a snapshot that --from, diff and contract init read back", async () => {
    await using dir = await tmpDir();
    const saved = path.join(dir.path, "probe.json");
    expect((await runCliInProcess(["probe", "--driver", fake, "--save", saved, ...slow])).exitCode).toBe(0);
    const again = await runCliInProcess(["probe", "--from", dir.path, "--contract", contract, "--json"]);
    expect(again.exitCode).toBe(0);
    expect(json(again.stdout).version).toBe("0.21.0");
    const same = await runCliInProcess(["diff", saved, dir.path, "--json"]);
    expect(json(same.stdout).changes).toEqual([]);

    const out = path.join(dir.path, "contract.json");
    const init = await runCliInProcess(["contract", "init", "--from", saved, "--out", out]);
    expect(init.exitCode).toBe(0);
    const written = JSON.parse(await readFile(out, "utf8"));
    expect(written).toMatchObject({ format: "cua-driver-contract", driver: { versions: "0.21.x", protocol_version: "2025-06-18" }, baseline: "probe.json" });
    expect(Object.keys(written.tools)).toHaveLength(60);
    expect((await runCliInProcess(["probe", "--from", saved, "--contract", out])).exitCode).toBe(0);
    const exists = await runCliInProcess(["contract", "init", "--from", saved, "--out", out]);
    expect(exists.exitCode).toBe(2);
    expect(exists.stderr).toContain("already exists. Choose another path, or pass --force to overwrite it.");
  });
});

describe("probe --from a gzip-compressed snapshot", () => {
  it("reads it like its plain JSON, and --save FILE.gz writes one that reads back the same", async () => {
    await using dir = await tmpDir();
    const gz = "contracts/drivers/cua-driver-0.21.0.probe.json.gz";
    const plain = path.join(dir.path, "plain.probe.json");
    const saved = path.join(dir.path, "saved.probe.json.gz");
    await writeFile(plain, gunzipSync(await readFile(path.join(repoRoot, gz))), { mode: 0o600 });
    const fromGz = await runCliInProcess(["probe", "--from", gz, "--contract", contract, "--json", "--save", saved]);
    const fromPlain = await runCliInProcess(["probe", "--from", plain, "--contract", contract, "--json"]);
    expect(fromGz.exitCode).toBe(0);
    expect(json(fromGz.stdout)).toEqual(json(fromPlain.stdout));
    expect(JSON.parse(gunzipSync(await readFile(saved)).toString("utf8"))).toEqual(JSON.parse(await readFile(plain, "utf8")));
  });
});

describe("probe bad input", () => {
  it("names the contract file, the field and the valid values", async () => {
    await using dir = await tmpDir();
    const bad = path.join(dir.path, "bad.json");
    const good = JSON.parse(await readFile(path.join(repoRoot, contract), "utf8"));
    await writeFile(bad, JSON.stringify({ ...good, format: "cua-contract" }, null, 2));
    const r = await runCliInProcess(["probe", "--from", "contracts/drivers/cua-driver-0.21.0.probe.json.gz", "--contract", bad]);
    expect(r.exitCode).toBe(2);
    // line 3: "$schema" is on line 2
    expect(r.stderr).toContain(`${bad}:3: format: driver contract is invalid`);
    expect(r.stderr).toContain('valid values: "cua-driver-contract"');

    good.tools.click.annotations.idempotentHint = "yes";
    const hintText = JSON.stringify(good, null, 2);
    await writeFile(bad, hintText);
    const hint = await runCliInProcess(["probe", "--from", "contracts/drivers/cua-driver-0.21.0.probe.json.gz", "--contract", bad]);
    expect(hint.exitCode).toBe(2);
    const hintLine = hintText.split("\n").indexOf('        "idempotentHint": "yes",') + 1;
    expect(hintLine).toBeGreaterThan(1);
    expect(hint.stderr).toContain(
      `${bad}:${hintLine}: tools.click.annotations.idempotentHint: driver contract is invalid: Invalid input: expected boolean, received string.`,
    );

    good.tools.click.annotations.idempotentHint = false;
    good.driver.versions = "latest";
    const rangeText = JSON.stringify(good, null, 2);
    await writeFile(bad, rangeText);
    const range = await runCliInProcess(["probe", "--from", "contracts/drivers/cua-driver-0.21.0.probe.json.gz", "--contract", bad]);
    const rangeLine = rangeText.split("\n").indexOf('    "versions": "latest",') + 1;
    expect(range.stderr).toContain(`${bad}:${rangeLine}: driver.versions: driver contract is invalid: "latest" is not a version`);

    await writeFile(bad, '{\n  "format": \n}');
    const syntax = await runCliInProcess(["probe", "--from", "contracts/drivers/cua-driver-0.21.0.probe.json.gz", "--contract", bad]);
    expect(syntax.exitCode).toBe(2);
    expect(syntax.stderr).toMatch(/bad\.json(:3)?: driver contract is not valid JSON \(/);
  });

  it("refuses two sources at once", async () => {
    const r = await runCliInProcess(["probe", "--driver", fake, "--sdk", "0.21.0"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--sdk: --driver and --sdk were both given. Give exactly one of --driver PATH, --sdk VERSION or --from CASSETTE.");
  });
});
