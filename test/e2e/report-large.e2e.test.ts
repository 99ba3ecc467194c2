import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { launchReportBrowser } from "../helpers/report-browser.js";
import { skipWithout } from "../helpers/system-packages.js";
import { tmpDir } from "../helpers/tmp-dir.js";
import { writeLongCassette } from "./report-fixtures.js";

// A report of 10 000 calls (20 001 events) in a real browser: the first page is there when the page
// has loaded, the rest are packed and open when asked (docs/decisions/0235).
const skipBrowser = await skipWithout("chromium", "report in Chromium");
const CALLS = 10_000;

let tmp: { path: string } & AsyncDisposable;
let context: BrowserContext;
let html: string;
let out: string;

beforeAll(async () => {
  tmp = await tmpDir();
  const cassette = path.join(tmp.path, "long");
  writeLongCassette({ out: cassette, calls: CALLS });
  out = path.join(tmp.path, "long.html");
  const run = await runCliInProcess(["report", cassette, "--out", out, "--json"]);
  expect(run.exitCode, String(run.stderr)).toBe(0);
  expect(JSON.parse(String(run.stdout))).toMatchObject({ kind: "cassette", rows: CALLS, problems: 0 });
  html = readFileSync(out, "utf8");
  if (!skipBrowser) context = await launchReportBrowser(path.join(tmp.path, "chromium-profile"));
}, 60_000);

afterAll(async () => {
  await context?.close();
  await tmp?.[Symbol.asyncDispose]();
});

describe("report of a long recording", () => {
  it("writes the first page as markup and the other 49 packed, with one script the policy allows by its hash", () => {
    expect(html.match(/<li class="call/g)).toHaveLength(200);
    expect(html.match(/<details class="page packed"/g)).toHaveLength(CALLS / 200 - 1);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    // packed: far below the 600-odd bytes a call's markup takes
    expect(html.length / CALLS).toBeLessThan(150);
  });
});

describe.skipIf(skipBrowser)("report of a long recording in Chromium", () => {
  it("shows the first page on load, opens a later page, and a link to a call on a packed page opens that page", { timeout: 30_000 }, async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`file://${out}`);
    await page.waitForLoadState("load");
    await expect(page.locator("li.call").count()).resolves.toBe(200);
    await expect(page.locator("li.call").first().getAttribute("id")).resolves.toBe("seq-1");
    await expect(page.locator("li.call").first().isVisible()).resolves.toBe(true);

    // the tenth packed page: calls 2 001–2 200 (seq 4001 – seq 4399)
    const later = page.locator("details.page.packed").nth(9);
    await expect(later.locator("summary").textContent()).resolves.toBe("calls seq 4001 – seq 4399 (200)");
    await later.locator("summary").click();
    // unpacking is asynchronous (DecompressionStream): wait for the page's calls to appear
    await later.locator("li.call").first().waitFor({ timeout: 5_000 });
    await expect(later.locator("li.call").count()).resolves.toBe(200);
    await expect(later.locator("li.call").first().locator(".result").textContent()).resolves.toBe('window 7 (pid 100): "Call 2001"');
    await expect(later.locator("li.call").nth(3).locator(".badge.epoch").textContent()).resolves.toBe("epoch 500 → 501");

    // the last call, on a page not opened: the address names it, its page opens, it is the target
    await page.evaluate(`location.hash = "#seq-${2 * CALLS - 1}"`);
    const last = page.locator(`#seq-${2 * CALLS - 1}`);
    await last.waitFor({ timeout: 5_000 });
    await expect(last.count()).resolves.toBe(1);
    await page.waitForFunction(`document.querySelector("#seq-${2 * CALLS - 1}:target") !== null`);
    const box = await last.boundingBox();
    expect(box!.y).toBeGreaterThan(-2);
    expect(box!.y).toBeLessThan(900);
    await expect(page.locator("details.page.packed[open]").count()).resolves.toBe(2);

    expect(problems).toEqual([]);
    expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
    await page.close();
  });
});
