import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { launchReportBrowser } from "../helpers/report-browser.js";
import { skipWithout } from "../helpers/system-packages.js";
import { tmpDir } from "../helpers/tmp-dir.js";
import { writeCarelessReplayLog } from "./report-fixtures.js";

// The report is checked in a real browser: Debian's chromium, driven by playwright-core (no download).
const skipBrowser = await skipWithout("chromium", "report in Chromium");
const outputDir = path.join(repoRoot, "test-output");
const trajectory = path.join(repoRoot, "test/fixtures/trajectories/gtk3-demo-0.21.0");

let tmp: { path: string } & AsyncDisposable;
let context: BrowserContext;
let cassette: string;
const requests: string[] = [];

async function open(file: string): Promise<Page> {
  const page = await context.newPage();
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`file://${file}`);
  await page.waitForLoadState("load");
  return page;
}

// Every screenshot on the page: how many, how many carry an embedded image, how many distinct
// images the stylesheet holds, and whether the first one shows real pixels in a page screenshot
// (an image decoded lazily comes out blank there).
async function shownFrames(page: Page): Promise<{ total: number; embedded: number; distinct: number; html: number; firstHasPixels: boolean }> {
  // A string, so the page's DOM types stay out of this Node-typed file.
  const counts = (await page.evaluate(`(() => {
    const frames = [...document.querySelectorAll(".frame:not(.diffview)")];
    const urls = frames.map((f) => getComputedStyle(f).backgroundImage);
    return { total: frames.length, embedded: urls.filter((u) => u.startsWith('url("data:image/')).length, distinct: new Set(urls).size, html: document.documentElement.outerHTML.split("data:image/").length - 1 };
  })()`)) as { total: number; embedded: number; distinct: number; html: number };
  let firstHasPixels = false;
  if (counts.total > 0) {
    const png = await page.locator(".frame:not(.diffview)").first().screenshot();
    const { channels } = await sharp(png).stats();
    firstHasPixels = channels.slice(0, 3).some((c) => c.stdev > 10);
  }
  return { ...counts, firstHasPixels };
}

beforeAll(async () => {
  if (skipBrowser) return;
  tmp = await tmpDir("cua-report-e2e-");
  cassette = path.join(tmp.path, "cassette");
  const imported = await runCliInProcess(["import", trajectory, "--out", cassette, "--driver-source", "sdk", "--driver-version", "0.21.0"]);
  expect(imported.exitCode, String(imported.stderr)).toBe(0);
  mkdirSync(outputDir, { recursive: true });
  context = await launchReportBrowser(path.join(tmp.path, "chromium-profile"));
}, 60_000);

afterAll(async () => {
  await context?.close();
  await tmp?.[Symbol.asyncDispose]();
});

describe.skipIf(skipBrowser)("cua-contract report in Chromium", () => {
  it("shows a replay log: failures on top linking to their calls, faults, verdicts, decoded screenshots", { timeout: 60_000 }, async () => {
    const log = path.join(tmp.path, "replay.jsonl");
    const entries = await writeCarelessReplayLog({ cassetteDir: cassette, logFile: log, typed: "hello" });
    const out = path.join(tmp.path, "replay.html");
    const run = await runCliInProcess(["report", log, "--cassette", cassette, "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const failures = Number(/from a replay-log: 15 calls, (\d+) failures, 9 screenshots, 8 consecutive pairs compared/.exec(String(run.stdout))?.[1]);

    const page = await open(out);
    // the summary line counts exactly the failures the page lists
    const titles = await page
      .locator("section.problems li.problem")
      .evaluateAll((items) => items.map((i) => i.querySelector("strong, .title, b")?.textContent ?? i.textContent ?? ""));
    expect(titles).toHaveLength(failures);
    // the resent click breaks three invariants; the replay answers it as the driver would (its recorded answer again)
    expect(titles).toEqual(["no-replay-after-unknown", "rebuild-before-mutation", "retry-read-only-only"]);
    const requestsInLog = entries.filter((e) => e.type === "request");
    await expect(page.locator("li.call").count()).resolves.toBe(requestsInLog.length);
    // one row per request, in order, named by tool
    const tools = await page.locator("li.call").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-tool")));
    expect(tools).toEqual(requestsInLog.map((e) => (e.type === "request" ? e.tool : "")));

    // the fault and the verdict on the faulted click
    const faulted = page.locator("li.call.outcome-faulted");
    await expect(faulted.count()).resolves.toBe(1);
    await expect(faulted.locator(".badge.fault").textContent()).resolves.toMatch(/timeout_after_effect/);
    await expect(faulted.locator(".badge.verdict").textContent()).resolves.toBe("verify_fresh_state");
    await expect(page.locator("li.call.outcome-unmatched").count()).resolves.toBe(0);

    // failures at the top, before the timeline, and their links land on the calls
    const problem = page.locator("section.problems li.problem", { hasText: "no-replay-after-unknown" });
    await expect(problem.count()).resolves.toBe(1);
    const firstProblemY = await page.locator("section.problems").boundingBox();
    const firstRowY = await page.locator("li.call").first().boundingBox();
    expect(firstProblemY!.y).toBeLessThan(firstRowY!.y);
    const link = problem.locator("a", { hasText: "#2" });
    await link.click();
    expect(new URL(page.url()).hash).toBe("#call-2");
    const target = page.locator("#call-2");
    await expect(target.getAttribute("class")).resolves.toMatch(/flagged/);
    const box = await target.boundingBox();
    expect(box!.y).toBeGreaterThan(-2);
    expect(box!.y).toBeLessThan(900);

    // screenshots show real pixels, each distinct image is in the file once; identical ones are not repeated
    const images = await shownFrames(page);
    expect(images.total).toBeGreaterThan(0);
    expect(images.embedded).toBe(images.total);
    expect(images.html).toBe(images.distinct);
    expect(images.firstHasPixels).toBe(true);
    const changes = await page.locator("[data-change]").evaluateAll((els) => els.map((e) => e.getAttribute("data-change")));
    expect(changes).toHaveLength(8);
    expect(changes).toContain("identical");
    expect(changes).toContain("changed");
    await expect(page.locator("figure.diff .diffview").count()).resolves.toBe(changes.filter((c) => c !== "identical").length);
    await page.screenshot({ path: path.join(outputDir, "report-replay-log.png"), fullPage: true });
    await page.close();
  });

  it("shows a cassette imported from a real trajectory: every call, epochs, change kinds", { timeout: 60_000 }, async () => {
    const out = path.join(tmp.path, "cassette.html");
    const run = await runCliInProcess(["report", cassette, "--out", out, "--json"]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const stats = JSON.parse(String(run.stdout)) as { rows: number; pairs: number; screenshots: number; kind: string };
    expect(stats).toMatchObject({ kind: "cassette", rows: 14, screenshots: 9, pairs: 8 });
    const html = readFileSync(out, "utf8");
    expect(html).not.toMatch(/<script|https?:\/\//);
    const page = await open(out);
    await expect(page.locator("li.call").count()).resolves.toBe(14);
    await expect(page.locator("li.call.kind-mutation").count()).resolves.toBe(5);
    await expect(page.locator("li.call.kind-mutation .badge.epoch").allInnerTexts()).resolves.toEqual([
      "epoch 0 → 1",
      "epoch 1 → 2",
      // the scroll and the typing the driver refused (background_unavailable) changed nothing: they end no epoch
      "epoch 2",
      "epoch 2 → 3",
      "epoch 3",
    ]);
    // the refused scroll reads as an error with its code
    await expect(page.locator('li.call[data-tool="scroll"]').getAttribute("class")).resolves.toMatch(/is-error/);
    await expect(page.locator('li.call[data-tool="scroll"] .result').textContent()).resolves.toMatch(/background_unavailable/);
    await expect(page.locator("header.top").textContent()).resolves.toMatch(/read-only calls were reconstructed/);
    const images = await shownFrames(page);
    expect(images.embedded).toBe(images.total);
    expect(images.total).toBeGreaterThanOrEqual(3);
    expect(images.html).toBe(images.distinct);
    expect(images.firstHasPixels).toBe(true);
    await page.screenshot({ path: path.join(outputDir, "report-cassette.png"), fullPage: true });
    await page.close();
  });

  it("shows a check result: every failure first, linked to the scenario step", { timeout: 60_000 }, async () => {
    const check = await runCliInProcess(["check", "--harness", "resend-timed-out-click", "--json"]);
    expect(check.exitCode).toBe(1);
    const resultFile = path.join(tmp.path, "check.json");
    writeFileSync(resultFile, String(check.stdout));
    const result = JSON.parse(String(check.stdout)) as { failed: number; scenarios: Array<{ passed: boolean; title: string }> };
    const out = path.join(tmp.path, "check.html");
    const run = await runCliInProcess(["report", resultFile, "--out", out]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const page = await open(out);
    await expect(page.locator("section.scenario").count()).resolves.toBe(result.scenarios.length);
    await expect(page.locator("section.scenario h2 .badge.fail").count()).resolves.toBe(result.failed);
    const stepLink = page.locator("section.problems.all li.problem a", { hasText: /^step \d+$/ }).first();
    const href = await stepLink.getAttribute("href");
    await stepLink.click();
    expect(new URL(page.url()).hash).toBe(href);
    await expect(page.locator(href!).count()).resolves.toBe(1);
    await page.screenshot({ path: path.join(outputDir, "report-check.png") });
    await page.close();
  });

  it("check --report: failures first, grouped by scenario and linked to the served request; passing scenarios collapsed; a filter", {
    timeout: 60_000,
  }, async () => {
    const out = path.join(tmp.path, "check-report.html");
    const run = await runCliInProcess(["check", "--harness", "resend-timed-out-click", "--report", out]);
    expect(run.exitCode).toBe(1);
    const page = await open(out);
    const failed = page.locator("section.scenario.failed");
    const passed = page.locator("section.scenario.passed");
    const nFailed = await failed.count();
    expect(nFailed).toBeGreaterThan(0);
    expect(await passed.count()).toBeGreaterThan(0);
    // one group per failed scenario, its title once, before any scenario
    await expect(page.locator("section.problems.all .group").count()).resolves.toBe(nFailed);
    const groupY = (await page.locator("section.problems.all").boundingBox())!.y;
    expect(groupY).toBeLessThan(900);
    expect(groupY).toBeLessThan((await page.locator("section.scenario").first().boundingBox())!.y);
    // failed scenarios come before passed ones, passed ones are collapsed
    const order = await page.locator("section.scenario").evaluateAll((els) => els.map((e) => (e.classList.contains("failed") ? "failed" : "passed")));
    expect(order).toEqual([...order].sort());
    await expect(passed.first().locator(":scope > details").getAttribute("open")).resolves.toBeNull();
    await expect(passed.first().locator("li.call").first().isVisible()).resolves.toBe(false);
    // a failure links to a request the replay served (a row of the replay log, not of the recording)
    const requestLink = page.locator("section.problems.all li.problem a", { hasText: /^#\d+$/ }).first();
    const href = (await requestLink.getAttribute("href"))!;
    await requestLink.click();
    await expect(page.locator(href).getAttribute("class")).resolves.toMatch(/outcome-(replayed|faulted|unmatched)/);
    // the filter hides passing scenarios without a script
    await page.locator("#only-failed").check();
    await expect(passed.first().isVisible()).resolves.toBe(false);
    await expect(failed.first().isVisible()).resolves.toBe(true);
    await page.screenshot({ path: path.join(outputDir, "report-check-run.png") });
    await page.close();
  });

  it("made no network request: only the file and inline images", () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith("file://") && !u.startsWith("data:"))).toEqual([]);
  });
});

describe("cua-contract report: bad input", () => {
  it("exits 2 naming the file for something that is not a report input", async () => {
    await using dir = await tmpDir();
    const bad = path.join(dir.path, "notes.json");
    writeFileSync(bad, '{"hello": 1}');
    const run = await runCliInProcess(["report", bad, "--out", path.join(dir.path, "r.html")]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      `cua-contract: ${bad}: neither a cassette, a replay log nor a check result (a JSON object with keys "hello"; a check result has "scenarios", a replay log one {"type": …} entry per line). Pass a cassette directory, a replay log (.jsonl, one entry per line) or a check result (.json from \`check --json\`).`,
    );
  });

  it("exits 2 naming file:line for a torn replay log", async () => {
    await using dir = await tmpDir();
    const bad = path.join(dir.path, "replay.jsonl");
    writeFileSync(bad, '{"type":"mark","t_ms":0,"label":"x"}\n{"type":"request","n":0\n');
    const run = await runCliInProcess(["report", bad, "--out", path.join(dir.path, "r.html")]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/replay\.jsonl:2: replay log line is not JSON/);
  });
});
