import { copyFile, cp, mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const contract = "contracts/drivers/cua-driver-0.21.json";
const kept = path.join(repoRoot, "contracts/snapshots");
const keptVersions = (await readdir(kept)).map((f) => /^sdk-(.+)\.probe\.json$/.exec(f)?.[1]).filter((v): v is string => Boolean(v));
const FAIL_028 = [
  "contract:annotation:get_window_state:idempotentHint",
  "contract:contract_version:contract_version",
  "diff:alternative_removed:click:/inputSchema/properties/target/anyOf/1",
];

/** A cache whose registry list is fresh and holds every kept version: `--matrix all` needs no network. */
async function warmCache(root: string, options: { snapshots?: boolean } = {}): Promise<Record<string, string>> {
  const probe = path.join(root, "cua-contract", "probe");
  await mkdir(probe, { recursive: true, mode: 0o700 });
  await writeFile(path.join(probe, "versions.json"), JSON.stringify({ fetched_at: new Date().toISOString(), versions: keptVersions }));
  if (options.snapshots) for (const v of keptVersions) await copyFile(path.join(kept, `sdk-${v}.probe.json`), path.join(probe, `${v}.json`));
  return { XDG_CACHE_HOME: root };
}

describe("gate on every published version (kept snapshots, offline)", () => {
  it("keeps a snapshot of every published version", () => {
    expect(keptVersions.sort()).toEqual(["0.14.1", "0.19.3", "0.20.0", "0.21.0", "0.22.0", "0.22.2", "0.24.0", "0.28.0", "0.28.1", "0.28.2"]);
  });

  it.each(["0.21.0", "0.22.0", "0.22.2", "0.24.0"])("%s passes the shipped contract and the bundled recordings", async (version) => {
    await using cache = await tmpDir();
    const r = await runCliInProcess(["gate", "--contract", contract, "--sdk", version, "--recordings", "recordings", "--snapshots", kept, "--json"], {
      env: { XDG_CACHE_HOME: cache.path },
    });
    expect(r.exitCode, String(r.stdout)).toBe(0);
    const doc = JSON.parse(String(r.stdout));
    expect(doc).toMatchObject({ ok: true, version, unexpected: [], snapshot: { origin: "kept" } });
    expect(doc.recordings.breaks).toEqual([]);
    expect(doc.recordings.stale.length).toBe(version === "0.24.0" ? 4 : 0);
  });

  it.each(["0.28.0", "0.28.1", "0.28.2"])("%s fails on exactly the idempotentHint flip, the contract version and click.target losing null", async (version) => {
    await using cache = await tmpDir();
    const r = await runCliInProcess(["gate", "--contract", contract, "--sdk", version, "--recordings", "recordings", "--snapshots", kept], {
      env: { XDG_CACHE_HOME: cache.path },
    });
    expect(r.exitCode).toBe(1);
    const failing = String(r.stdout)
      .split("\n")
      .filter((l) => l.startsWith("  FAIL"))
      .map((l) => /\[([^\]]+)\]$/.exec(l)?.[1]);
    expect(failing).toEqual(FAIL_028);
    expect(r.stdout).toContain(
      "  stale    recordings/gtk3-demo-cli event 3 (start_session): the recorded output lacks $.desktop_capture_authorized, which the candidate now requires",
    );
    expect(r.stdout).toContain(
      `  re-record recordings/gtk3-demo-cli: cua-contract verify recordings/gtk3-demo-cli --driver sdk:${version} --desktop --secret <each text it typed> --update recordings/gtk3-demo-cli-${version} (or: cua-contract record --driver sdk:${version} --force --out recordings/gtk3-demo-cli -- <the harness command that made it>)`,
    );
    expect(r.stdout).toContain(
      "  skipped  8 item(s) not checked, the published runtime has no CLI: mcp --socket, call --socket, call --screenshot-out-file, status --socket, serve --socket, stop --socket, manifest, list-tools; check them with --driver PATH (a cua-driver binary of the same version)",
    );
    expect(r.stdout).toContain(`FAIL: 3 new failure(s)`);
  });

  it("0.20.0 lists the adapter no contract tool uses instead of failing on it", async () => {
    await using cache = await tmpDir();
    const r = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.20.0", "--recordings", "recordings", "--snapshots", kept], {
      env: { XDG_CACHE_HOME: cache.path },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(/FAIL .*adapter/);
    expect(r.stdout).toContain(
      "  listed   behavioural: enforcement adapter computer_history is gone (it covers history_query, history_status, none of them in the contract; not failed)",
    );
  });

  it("an expected-failures file listing the diff id of a fact the contract item also names still matches it", async () => {
    await using dir = await tmpDir();
    const baseline = path.join(dir.path, "expected.json");
    const ids = ["diff:annotation_changed:get_window_state:/annotations/idempotentHint", "contract:contract_version:contract_version", FAIL_028[2]];
    await writeFile(baseline, JSON.stringify({ format: "cua-expected-failures", version: 1, failures: ids.map((id) => ({ id })) }));
    const r = await runCliInProcess(
      ["gate", "--contract", contract, "--sdk", "0.28.2", "--recordings", "recordings", "--snapshots", kept, "--expected-failures", baseline, "--json"],
      { env: { XDG_CACHE_HOME: dir.path } },
    );
    expect(r.exitCode, String(r.stdout)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ ok: true, unexpected: [], stale: [] });
  });

  it("--matrix all prints one table from a warm cache, probing and installing nothing, and appends to --history", async () => {
    await using dir = await tmpDir();
    const env = await warmCache(dir.path, { snapshots: true });
    const history = path.join(dir.path, "gate-history.jsonl");
    const junit = path.join(dir.path, "matrix.xml");
    const r = await runCliInProcess(["gate", "--contract", contract, "--recordings", "recordings", "--matrix", "all", "--history", history, "--junit", junit], {
      env,
    });
    expect(r.exitCode).toBe(1);
    const out = String(r.stdout);
    expect(out).toContain("| version | verdict | failing items | stale recordings |");
    expect(out).toContain("| 0.20.0 | pass | – | – |");
    expect(out).toContain("| 0.24.0 | pass | – | 4 |");
    for (const v of ["0.28.0", "0.28.1", "0.28.2"]) expect(out).toContain(`| ${v} | fail | 3: ${FAIL_028.map((id) => `\`${id}\``).join(", ")} | 4 |`);
    expect(out).toContain("snapshots: 10 from the cache or kept snapshots");
    expect(out).toContain("newest version this contract and these recordings can bump to: 0.24.0");
    // Nothing was installed: the runtime cache next to the snapshot cache was never created.
    expect(await stat(path.join(dir.path, "cua-contract", "sdk")).catch(() => undefined)).toBeUndefined();
    expect(out).toContain("0 verdict(s) reused");
    const again = await runCliInProcess(["gate", "--contract", contract, "--recordings", "recordings", "--matrix", "all"], { env });
    expect(String(again.stdout).replace("10 verdict(s) reused", "0 verdict(s) reused")).toBe(out);
    expect((await stat(path.join(dir.path, "cua-contract", "probe", "verdicts"))).mode & 0o777).toBe(0o700);
    await runCliInProcess(["gate", "--contract", contract, "--recordings", "recordings", "--matrix", ">=0.24.0", "--history", history], { env });
    const lines = (await readFile(history, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.range, l.newest_passing, l.versions.length])).toEqual([
      ["all", "0.24.0", 10],
      [">=0.24.0", "0.24.0", 4],
    ]);
    expect(lines[1].versions[1]).toEqual({ version: "0.28.0", verdict: "fail", failing: FAIL_028, stale_recordings: 4 });
    const xml = await readFile(junit, "utf8");
    expect(xml.match(/<testsuite name="cua-driver [^"]+"/g)).toHaveLength(10);
    expect(xml).toMatch(/<testsuite name="cua-driver 0.24.0" tests="\d+" failures="0"/);
    expect(xml).toMatch(/<testsuite name="cua-driver 0.28.2" tests="\d+" failures="3"/);
  });

  it("one expected-failures file serves every version: expected where it happens, not stale where it does not", async () => {
    await using dir = await tmpDir();
    const baseline = path.join(dir.path, "expected.json");
    await writeFile(baseline, JSON.stringify({ format: "cua-expected-failures", version: 1, failures: FAIL_028.map((id) => ({ id })) }));
    const r = await runCliInProcess(
      [
        "gate",
        "--contract",
        contract,
        "--recordings",
        "recordings",
        "--matrix",
        "0.21.0,0.28.2",
        "--snapshots",
        kept,
        "--expected-failures",
        baseline,
        "--json",
      ],
      { env: { XDG_CACHE_HOME: dir.path } },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout)).rows.map((x: any) => [x.version, x.verdict, x.failing])).toEqual([
      ["0.21.0", "pass", []],
      ["0.28.2", "pass", []],
    ]);
  });

  it("reuses a version's verdict only while nothing it depends on changed", async () => {
    await using dir = await tmpDir();
    const rec = path.join(dir.path, "rec");
    await cp(path.join(repoRoot, "recordings/gtk3-demo-cli"), rec, { recursive: true });
    const run = async () =>
      JSON.parse(
        String(
          (
            await runCliInProcess(["gate", "--contract", contract, "--recordings", rec, "--matrix", "0.24.0,0.28.2", "--snapshots", kept, "--json"], {
              env: { XDG_CACHE_HOME: dir.path },
            })
          ).stdout,
        ),
      );
    expect((await run()).rows.map((r: any) => r.reused)).toEqual([false, false]);
    expect((await run()).rows.map((r: any) => r.reused)).toEqual([true, true]);
    await utimes(path.join(rec, "cassette.jsonl"), new Date(), new Date(Date.now() + 5000));
    const third = await run();
    expect(third.rows.map((r: any) => [r.reused, r.verdict, r.stale_recordings.length])).toEqual([
      [false, "pass", 2],
      [false, "fail", 2],
    ]);
  });

  it("--matrix --json names each version's failures; bad ranges and clashing flags exit 2", async () => {
    await using dir = await tmpDir();
    const r = await runCliInProcess(
      ["gate", "--contract", contract, "--recordings", "recordings", "--matrix", "0.21.0,0.28.2", "--snapshots", kept, "--json"],
      {
        env: { XDG_CACHE_HOME: dir.path },
      },
    );
    const doc = JSON.parse(String(r.stdout));
    expect(doc.rows.map((x: any) => [x.version, x.verdict, x.snapshot])).toEqual([
      ["0.21.0", "pass", "kept"],
      ["0.28.2", "fail", "kept"],
    ]);
    expect(doc.rows[1].failures[2]).toEqual({ id: FAIL_028[2], message: 'breaking: click: input property "target" no longer accepts null' });
    const bad = await runCliInProcess(["gate", "--contract", contract, "--matrix", ">=zero"], { env: { XDG_CACHE_HOME: dir.path } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--matrix ">=zero"');
    const clash = await runCliInProcess(["gate", "--contract", contract, "--matrix", "all", "--sdk", "0.21.0"], { env: { XDG_CACHE_HOME: dir.path } });
    expect(clash.exitCode).toBe(2);
    expect(clash.stderr).toContain("--matrix and --sdk were both given");
  });
});
