// HTML report generation ÷ reading the same cassette, for the largest bundled recording and for the
// cassette imported from the bundled real trajectory (the one with the most screenshot pairs); then
// the report of a 100 000-event recording: peak RSS, HTML size, and how soon Chromium shows it
// against a bundled recording's report.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import { chromium } from "playwright-core";
import sharp from "sharp";
import path from "node:path";
import { readCassette } from "../dist/cassette/reader.js";
import { diffImage } from "../dist/harness/screen/diff-image.js";
import { screenChange } from "../dist/harness/screen/screen-change.js";
import { importTrajectory } from "../dist/import/import-trajectory.js";
import { buildReport } from "../dist/report/write-report.js";
import { loadReportInput } from "../dist/report/load-input.js";
import { buildCassette } from "./scale/build.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "report";
export const title = "HTML report generation vs reading the cassette";

const root = new URL("../", import.meta.url).pathname;
const TARGET = 5;

function bytesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, String(f)))
    .filter((f) => statSync(f).isFile())
    .reduce((n, f) => n + statSync(f).size, 0);
}

function largestBundled() {
  const dir = path.join(root, "recordings");
  const cassettes = readdirSync(dir)
    .map((n) => path.join(dir, n))
    .filter((d) => existsSync(path.join(d, "cassette.jsonl")))
    .map((d) => ({ dir: d, bytes: bytesUnder(d) }))
    .sort((a, b) => b.bytes - a.bytes);
  return cassettes[0];
}

// The frames of a cassette in timeline order (what the report compares pair by pair).
function framesInOrder(dir, cassette) {
  const refs = [];
  for (const e of cassette.events) {
    for (const s of e.frames ?? []) refs.push(s.ref);
    for (const f of Object.values(e.files ?? {})) refs.push(f.ref);
  }
  return refs.map((ref) => ({ ref, bytes: readFileSync(path.join(dir, ref)) }));
}

// A copy of the cassette without the signatures stored with its frames (the report then decodes every frame).
function unsignedCopy(dir, tmp) {
  const copy = path.join(tmp, `unsigned-${path.basename(dir)}`);
  cpSync(dir, copy, { recursive: true });
  const framesDir = path.join(copy, "frames");
  for (const f of existsSync(framesDir) ? readdirSync(framesDir) : []) if (f.endsWith(".sig.json")) rmSync(path.join(framesDir, f));
  return copy;
}

const signatureCount = (dir) =>
  existsSync(path.join(dir, "frames")) ? readdirSync(path.join(dir, "frames")).filter((f) => f.endsWith(".sig.json")).length : 0;

async function measure(label, dir, tmp) {
  const screen = { screenChange, diffImage };
  const frames = framesInOrder(dir, await readCassette(dir));
  const distinct = [...new Map(frames.map((f) => [f.ref, f.bytes])).values()];
  const unsigned = unsignedCopy(dir, tmp);
  let stats;
  let unsignedStats;
  const times = await timeInterleaved(
    {
      read: () => readCassette(dir),
      report: async () => {
        const built = await buildReport({ input: await loadReportInput(dir), screen });
        stats = built.stats;
      },
      unsigned: async () => {
        const built = await buildReport({ input: await loadReportInput(unsigned), screen });
        unsignedStats = built.stats;
      },
      // The image work alone: screenChange on every consecutive pair of different frames, diffImage where they differ.
      images: async () => {
        for (let i = 1; i < frames.length; i++) {
          if (frames[i].ref === frames[i - 1].ref) continue;
          const change = await screenChange(frames[i - 1].bytes, frames[i].bytes);
          if (change.kind !== "identical") await diffImage(frames[i - 1].bytes, frames[i].bytes);
        }
      },
      // Decoding each distinct frame once, concurrently: what any comparison of every pair pays at least.
      decode: () => Promise.all(distinct.map((b) => sharp(b).raw().toBuffer())),
    },
    { runs: 15, warmup: 3 },
  );
  const read = median(times.read);
  const report = median(times.report);
  const unsignedReport = median(times.unsigned);
  const images = median(times.images);
  const decode = median(times.decode);
  const ratio = report / read;
  const everyPair = stats.pairs === Math.max(0, stats.screenshots - 1);
  // Both reports must judge alike: the stored signatures are the ones the report would compute.
  const alike = JSON.stringify({ ...stats, bytes: 0 }) === JSON.stringify({ ...unsignedStats, bytes: 0 });
  return `| ${label} | ${fmt(bytesUnder(dir) / 1024, 0)} KiB, ${stats.rows} calls | ${stats.screenshots} / ${stats.pairs} (${stats.changed} changed)${everyPair ? "" : " **not every pair**"} | ${signatureCount(dir)} of ${distinct.length} | ${fmt(read, 2)} | ${fmt(report, 2)} | ${fmt(ratio)} | ${fmt(unsignedReport, 2)} (${fmt(unsignedReport / read)})${alike ? "" : " **judged otherwise**"} | ${fmt(images, 2)} | ${fmt(decode, 2)} | ≤ ${TARGET} | ${ratio <= TARGET && everyPair && alike ? "pass" : "miss"} |`;
}

const LARGE_EVENTS = 100_000;
const RSS_TARGET_MIB = 300;
const PAINT_TARGET = 5;
const PAINT_RUNS = 5;
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// `cua-contract report` in its own process under GNU time: wall seconds, peak RSS (MiB), the summary.
function timedReport(dir, out, tmp) {
  const timeFile = path.join(tmp, `time-${process.hrtime.bigint()}.txt`);
  const r = spawnSync(
    "/usr/bin/time",
    ["-o", timeFile, "-f", "%e %M", process.execPath, path.join(root, "bin/cua-contract.js"), "report", dir, "--out", out, "--json"],
    {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    },
  );
  if (r.status !== 0) throw new Error(`report of ${dir} failed: ${r.stderr}`);
  const [wall, kib] = readFileSync(timeFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
  return { wall, rss: kib / 1024, stats: JSON.parse(r.stdout) };
}

// Opens a report in headless Chromium: milliseconds from navigation to the load event, to the first
// frame painted after it (the first screen of the parsed page), and to the first contentful paint.
async function paintOf(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`file://${file}`, { waitUntil: "load", timeout: 600_000 });
    return await page.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              const nav = performance.getEntriesByType("navigation")[0];
              const fcp = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
              resolve({ load: nav.loadEventEnd, painted: performance.now(), fcp: fcp?.startTime ?? Number.NaN });
            }),
          ),
        ),
    );
  } finally {
    await page.close();
  }
}

async function measureLarge(small, tmp) {
  const dir = path.join(tmp, "large");
  const built = await buildCassette({ from: path.join(root, "recordings/gtk3-demo-mcp"), out: dir, events: LARGE_EVENTS, screenshots: false });
  const largeHtml = path.join(tmp, "large.html");
  const smallHtml = path.join(tmp, "small.html");
  const large = timedReport(dir, largeHtml, tmp);
  timedReport(small.dir, smallHtml, tmp);
  if (!existsSync(CHROMIUM))
    return `Report of a ${LARGE_EVENTS}-event recording: ${fmt(large.rss, 0)} MiB peak RSS, ${fmt(large.stats.bytes / 2 ** 20, 1)} MiB of HTML; no ${CHROMIUM} to measure the paint.`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  const paints = { small: [], large: [] };
  try {
    await paintOf(browser, smallHtml); // warm-up
    for (let i = 0; i < PAINT_RUNS; i++) {
      paints.small.push(await paintOf(browser, smallHtml));
      paints.large.push(await paintOf(browser, largeHtml));
    }
  } finally {
    await browser.close();
  }
  const med = (list, key) => median(list.map((p) => p[key]));
  const ms = (n) => (Number.isNaN(n) ? "not reported" : fmt(n, 0));
  const fcp = (list) => {
    const seen = list.map((p) => p.fcp).filter((t) => !Number.isNaN(t));
    return seen.length > 0 ? median(seen) : Number.NaN;
  };
  const load = { small: med(paints.small, "load"), large: med(paints.large, "load") };
  const painted = { small: med(paints.small, "painted"), large: med(paints.large, "painted") };
  const ratios = { load: load.large / load.small, painted: painted.large / painted.small };
  const rssOk = large.rss <= RSS_TARGET_MIB;
  const paintOk = ratios.load <= PAINT_TARGET && ratios.painted <= PAINT_TARGET;
  const events = LARGE_EVENTS.toLocaleString("en").replace(/,/g, " ");
  return [
    `Report of a recording of ${events} events: \`recordings/gtk3-demo-mcp\` repeated through \`bench/scale/build.js\` without the exchanges that carry a screenshot (${fmt(built.bytes / 2 ** 20, 0)} MiB of cassette.jsonl, ${large.stats.rows} calls). \`cua-contract report\` in its own process under GNU time; then that report and the largest bundled recording's (\`${path.relative(root, small.dir)}\`) opened in headless Chromium, alternating, ${PAINT_RUNS} times each after a warm-up, medians: time from navigation to the load event, and to the first frame painted after it (the first screen of the parsed page); first contentful paint alongside (Chromium does not always report it). The paint target holds for both ratios.`,
    "",
    "| report | wall s | peak RSS | HTML | load ms | first frame after load ms | first contentful paint ms | load ÷ bundled | first frame ÷ bundled | targets | result |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    `| ${large.stats.rows} calls (${events} events) | ${fmt(large.wall, 1)} | ${fmt(large.rss, 0)} MiB | ${fmt(large.stats.bytes / 2 ** 20, 1)} MiB | ${ms(load.large)} | ${ms(painted.large)} | ${ms(fcp(paints.large))} | ${fmt(ratios.load)} | ${fmt(ratios.painted)} | RSS ≤ ${RSS_TARGET_MIB} MiB, paint ≤ ${PAINT_TARGET}× | ${rssOk && paintOk ? "pass" : `miss (${[rssOk ? "" : "RSS", paintOk ? "" : "paint"].filter(Boolean).join(", ")})`} |`,
    `| bundled \`${path.relative(root, small.dir)}\` | — | — | — | ${ms(load.small)} | ${ms(painted.small)} | ${ms(fcp(paints.small))} | 1.00 | 1.00 | | |`,
  ].join("\n");
}

export async function run() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "cua-report-bench-"));
  try {
    const bundled = largestBundled();
    const imported = path.join(tmp, "imported");
    await importTrajectory({ from: path.join(root, "test/fixtures/trajectories/gtk3-demo-0.21.0"), out: imported, source: "sdk" });
    const rows = [
      await measure(`largest bundled recording: \`${path.relative(root, bundled.dir)}\``, bundled.dir, tmp),
      await measure("imported `test/fixtures/trajectories/gtk3-demo-0.21.0` (real 0.21.0 trajectory)", imported, tmp),
    ];
    const large = await measureLarge(bundled, tmp);
    return [
      "Report = `buildReport` on the cassette directory: read and validate the cassette (not its probe.json, which a report does not show), pair requests with answers, judge mutations, compare every consecutive screenshot pair of different frames with `screenChange`, embed each distinct image once and render the HTML. Each frame's screen signature is read from `frames/<sha256>.sig.json` where the cassette stores one (record, import and `cassette sign` write them; docs/decisions/0174), else computed from the frame. Read = `readCassette` (frames hash-checked, probe.json read). Median of 15 interleaved runs.",
      "",
      "| cassette | size | screenshots / pairs compared | frames signed | read ms | report ms | report ÷ read | report ms with no signature stored (÷ read) | image work alone, ms | decode distinct frames, ms | target | result |",
      "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
      ...rows,
      "",
      'The bundled recordings are signed (`cassette sign`), and `import` signs what it writes. "With no signature stored" is the same report on a copy without the `.sig.json` files (a cassette recorded before signatures were stored): every distinct frame is then decoded once, which is about the decode column and a floor the read never pays; a row says **judged otherwise** if the two reports disagree on any pair. "Image work alone" runs the harness core\'s `screenChange` and full-size `diffImage` on every consecutive pair of different frames, one call after another on bytes, as a caller without the report\'s frame cache would.',
      "",
      large,
    ].join("\n");
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
