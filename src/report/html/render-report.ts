import { createLru, type Lru } from "#src/util/lru.js";
import { esc } from "./escape.js";
import type { ReportModel, ReportProblem, ReportRow, ReportSection, ReportShot } from "./model.js";
import { PACK_AFTER, PACKED_PAGE_TYPE, PACKED_PAGES_CSS, PACKED_PAGES_SCRIPT, PACKED_PAGES_SCRIPT_HASH } from "./packed-pages.js";
import { REPORT_CSS } from "./report-style.js";

export interface RenderOptions {
  model: ReportModel;
  /**
   * The URL of an image id: a data: URI (self-contained) or a relative file name. Each image is
   * written once, as a CSS class in the stylesheet; every place that shows it names the class.
   */
  imageSrc: (image: string) => string;
  /** Pixel size of an image, for width/height attributes (no layout jumps). */
  imageSize?: (image: string) => { width: number; height: number } | undefined;
  /** Shown in the footer, e.g. "cua-contract 0.1.0". */
  generator: string;
  /**
   * Packs the markup of a timeline page (gzip, then base64). When given, a timeline of more than
   * PACK_AFTER calls keeps its first page as markup and packs the rest (docs/decisions/0235).
   */
  packPage?: (html: string) => string;
  /** The context a timeline built page by page was rendered in (renderContext); a new one otherwise. */
  context?: RenderContext;
}

function facts(list: Array<[string, string]>): string {
  if (list.length === 0) return "";
  return `<dl class="facts">${list.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("")}</dl>`;
}

function problems(section: ReportSection): string {
  if (section.problems.length === 0) {
    const what = section.passed === undefined ? "Nothing was judged: this is a recording." : "No failed invariants or expectations.";
    return `<section class="problems none"><h2>Failures (0)</h2><p>${esc(what)}</p></section>`;
  }
  const item = (p: ReportProblem) =>
    `<li class="problem kind-${esc(p.kind)}"><span class="title">${esc(p.title)}</span>${esc(p.message)}${p.links
      .map((l) => `<a href="#${esc(l.row)}">${esc(l.label)}</a>`)
      .join("")}</li>`;
  return `<section class="problems"><h2>Failures (${section.problems.length})</h2><ul>${section.problems.map(item).join("")}</ul></section>`;
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? "" : `+${(ms / 1000).toFixed(3)} s`;
}

/**
 * What a render has written once already: images (by id) and full results (by text, with the row
 * showing it; the most recent within a budget, so a long timeline holds a bounded amount: a result
 * whose first showing was forgotten is written again), and whether a page was packed.
 */
export interface RenderContext {
  images: Set<string>;
  details: Lru<string, { id: string; label: string }>;
  packed: boolean;
}

/** Characters of full results a render remembers to link to instead of writing them again. */
const DETAILS_REMEMBERED = 2 ** 20;

export function renderContext(): RenderContext {
  return { images: new Set(), details: createLru({ maxWeight: DETAILS_REMEMBERED }), packed: false };
}

// Image ids become CSS class names: letters, digits and dashes only.
const imageClass = (image: string) => `im-${image.replace(/[^A-Za-z0-9-]/g, "_")}`;

function aspect(options: RenderOptions, image: string): string {
  const size = options.imageSize?.(image);
  return size ? ` style="aspect-ratio:${size.width}/${size.height}"` : "";
}

// A screenshot: an element whose background is the image's one copy in the stylesheet.
function frame(options: RenderOptions, ctx: RenderContext, image: string, alt: string): string {
  ctx.images.add(image);
  return `<div class="frame ${imageClass(image)}" role="img" aria-label="${esc(alt)}"${aspect(options, image)}></div>`;
}

// What changed between two screenshots, drawn by the browser from their one copy each: the second
// over the first with a difference blend (unchanged pixels black, changes bright, tinted red), laid
// over a faint grey copy of the second for context.
function diffView(options: RenderOptions, ctx: RenderContext, prev: string, next: string, alt: string): string {
  ctx.images.add(prev);
  ctx.images.add(next);
  return `<div class="frame diffview" role="img" aria-label="${esc(alt)}"${aspect(options, next)}><div class="layer ${imageClass(next)}"></div><div class="delta"><div class="layer ${imageClass(prev)}"></div><div class="layer ${imageClass(next)}"></div></div></div>`;
}

function shot(options: RenderOptions, ctx: RenderContext, row: ReportRow, s: ReportShot, rowLabels: ReadonlyMap<string, string>): string {
  const change = s.change;
  const prevLabel = change ? (rowLabels.get(change.previousRow) ?? change.previousRow) : "";
  const pct = change?.fraction !== undefined && change.kind !== "identical" ? ` (${(change.fraction * 100).toFixed(1)} % of cells)` : "";
  const note = change?.note ? `; ${change.note}` : "";
  const badge = change
    ? `<span class="badge change-${change.kind}" data-change="${change.kind}">${esc(change.kind)}</span>${esc(pct)} vs <a href="#${esc(change.previousRow)}">${esc(prevLabel)}</a>${esc(note)}`
    : "first screenshot";
  if (change?.kind === "identical") {
    const shown = change.shownIn && change.shownIn !== change.previousRow ? change.shownIn : undefined;
    const where = shown ? `; shown at <a href="#${esc(shown)}">${esc(rowLabels.get(shown) ?? shown)}</a>` : "";
    return `<div class="same" data-image="${esc(s.image)}">${esc(s.label)}: ${badge} (same image, not repeated${where})</div>`;
  }
  const main = `<figure class="shot" data-image="${esc(s.image)}">${frame(options, ctx, s.image, `${s.label} of ${row.label}`)}<figcaption>${esc(s.label)} · ${badge}</figcaption></figure>`;
  if (!change || change.note !== undefined) return main;
  return `${main}<figure class="shot diff" data-image="${esc(change.previousImage)}+${esc(s.image)}">${diffView(options, ctx, change.previousImage, s.image, `what changed since ${prevLabel}`)}<figcaption>difference from ${esc(prevLabel)} (changes highlighted)</figcaption></figure>`;
}

// Short argument objects read best on one line; long ones keep their indentation.
function compactArgs(args: string): string {
  try {
    const one = JSON.stringify(JSON.parse(args));
    return one.length <= 110 ? one : args;
  } catch {
    return args;
  }
}

// A full result is written once; a later row with the same text links to the first (as an
// identical screenshot does), which keeps long runs of unchanged reads small.
function fullResult(ctx: RenderContext, r: ReportRow): string {
  const detail = r.resultDetail!;
  const first = ctx.details.get(detail);
  if (first) return `<p class="same">full result: same as <a href="#${esc(first.id)}">${esc(first.label)}</a></p>`;
  ctx.details.set(detail, { id: r.id, label: r.label }, detail.length);
  return `<details><summary>full result</summary><pre>${esc(detail)}</pre></details>`;
}

function row(options: RenderOptions, ctx: RenderContext, r: ReportRow, rowLabels: ReadonlyMap<string, string>): string {
  const classes = ["call", `kind-${r.kind}`, `outcome-${r.outcome}`, r.isError ? "is-error" : "", r.flagged ? "flagged" : ""].filter(Boolean).join(" ");
  const name = r.tool ?? r.method;
  const epoch =
    r.epochBefore === undefined
      ? ""
      : r.epochAfter !== undefined && r.epochAfter !== r.epochBefore
        ? `epoch ${r.epochBefore} → ${r.epochAfter}`
        : `epoch ${r.epochBefore}`;
  const head = [
    `<span class="label">${esc(r.label)}</span>`,
    `<span class="t">${esc(seconds(r.t_ms))}</span>`,
    `<code class="tool">${esc(name)}</code>`,
    `<span class="badge ${esc(r.kind)}">${esc(r.kind)}</span>`,
    epoch ? `<span class="badge epoch">${esc(epoch)}</span>` : "",
    r.outcome !== "recorded" ? `<span class="badge outcome ${r.outcome === "replayed" ? "" : "error"}">${esc(r.outcome)}</span>` : "",
    r.fault ? `<span class="badge fault">fault: ${esc(r.fault)}</span>` : "",
    r.verdict ? `<span class="badge verdict decision-${esc(r.verdict.decision)}" title="${esc(r.verdict.note)}">${esc(r.verdict.decision)}</span>` : "",
  ].join("");
  const body = [
    `<p class="result">${esc(r.result)}</p>`,
    r.verdict ? `<p class="note">verdict: ${esc(r.verdict.note)}</p>` : "",
    r.args && r.args !== "{}" ? `<pre class="args">${esc(compactArgs(r.args))}</pre>` : "",
    r.resultDetail ? fullResult(ctx, r) : "",
  ].join("");
  const shots = r.shots.length > 0 ? `<div class="shots">${r.shots.map((s) => shot(options, ctx, r, s, rowLabels)).join("")}</div>` : "";
  return `<li class="${classes}${shots ? " has-shots" : ""}" id="${esc(r.id)}" data-tool="${esc(name)}"><div class="head">${head}</div><div class="main">${body}</div>${shots}</li>`;
}

function section(options: RenderOptions, ctx: RenderContext, s: ReportSection, single: boolean): string {
  const flagged = new Set(s.problems.flatMap((p) => p.links.map((l) => l.row)));
  const mark = (r: ReportRow) => (flagged.has(r.id) ? { ...r, flagged: true } : r);
  const rows = s.rows.map(mark);
  const steps = (s.steps ?? []).map(mark);
  const labels = new Map([...steps, ...rows].map((r) => [r.id, r.label]));
  const stepList =
    steps.length > 0
      ? `<h2>Harness steps (${steps.length})</h2><ol class="timeline steps">${steps.map((r) => row(options, ctx, r, labels)).join("\n")}</ol>`
      : "";
  const built = s.timeline;
  const count = built ? built.count : rows.length;
  const timeline =
    count > 0
      ? `<h2>Timeline (${count} call${count === 1 ? "" : "s"})</h2>${built ? built.pages.join("\n") : pages(options, ctx, rows, labels)}`
      : steps.length > 0
        ? ""
        : `<p class="note">No calls to show.</p>`;
  const body = `${facts(s.facts)}${problems(s)}${stepList}${timeline}`;
  const state = s.passed === undefined ? "" : s.passed ? " passed" : " failed";
  if (single) return `<section class="scenario${state}" id="${esc(s.id)}">${body}</section>`;
  const heading = `<h2>${esc(s.title)}${passBadge(s)}</h2>`;
  // A passing scenario is collapsed to its title; a failing one is open.
  if (s.passed === true) return `<section class="scenario${state}" id="${esc(s.id)}"><details><summary>${heading}</summary>${body}</details></section>`;
  return `<section class="scenario${state}" id="${esc(s.id)}">${heading}${body}</section>`;
}

/** Calls per page of a long timeline. */
export const TIMELINE_PAGE = 200;

/**
 * The timeline, in pages of TIMELINE_PAGE calls (docs/decisions/0203): a page the reader has not
 * scrolled to is not laid out or painted (`content-visibility: auto`), so the first paint of a
 * report of thousands of calls costs what a page costs. No script: anchors, find-in-page and the
 * filters reach every call, since every page is in the document. Past PACK_AFTER calls the pages
 * after the first are packed instead (timelinePage).
 */
function pages(options: RenderOptions, ctx: RenderContext, rows: readonly ReportRow[], labels: ReadonlyMap<string, string>): string {
  const out: string[] = [];
  for (let start = 0; start < rows.length; start += TIMELINE_PAGE) {
    out.push(timelinePage({ options, ctx, rows: rows.slice(start, start + TIMELINE_PAGE), start, total: rows.length, labels }));
  }
  return out.join("\n");
}

/**
 * One page of a timeline of `total` calls, its rows starting at `start` (a multiple of
 * TIMELINE_PAGE); `labels` names the rows its screenshots are compared with. A timeline of one
 * page is a plain list. Past PACK_AFTER calls, when the shell can pack, every page but the first is
 * a closed `<details>` holding its markup packed, with the ids of its rows for links to reach them
 * (docs/decisions/0235).
 */
export function timelinePage(page: {
  options: RenderOptions;
  ctx: RenderContext;
  rows: readonly ReportRow[];
  start: number;
  total: number;
  labels: ReadonlyMap<string, string>;
}): string {
  const { options, ctx, rows, start, total } = page;
  const html = rows.map((r) => row(options, ctx, r, page.labels)).join("\n");
  if (total <= TIMELINE_PAGE) return `<ol class="timeline">${html}</ol>`;
  const range = `${rows[0]!.label} – ${rows.at(-1)!.label}`;
  const list = `<ol class="timeline" start="${start + 1}">${html}</ol>`;
  if (!options.packPage || total <= PACK_AFTER || start === 0) return `<div class="page" aria-label="${esc(range)}">${list}</div>`;
  const first = !ctx.packed;
  ctx.packed = true;
  const note = first
    ? `<p class="note">The calls after the first ${TIMELINE_PAGE} are packed in pages: open a page to show it (find-in-page and the filters see the pages that are open; a link to a call opens its page).</p>`
    : "";
  return `${note}<details class="page packed" aria-label="${esc(range)}" data-ids="${esc(rows.map((r) => r.id).join(" "))}"><summary>calls ${esc(range)} (${rows.length})</summary><script type="${PACKED_PAGE_TYPE}">${options.packPage(list)}</script></details>`;
}

const passBadge = (s: ReportSection) =>
  s.passed === undefined ? "" : ` <span class="badge ${s.passed ? "pass" : "fail"}">${s.passed ? "passed" : "failed"}</span>`;

// With several sections (a check run): the failures first, grouped by scenario (its title once),
// each linking to the requests it names; then the scenarios, failed ones first.
function overview(model: ReportModel): string {
  const failing = model.sections.filter((s) => s.problems.length > 0);
  const total = failing.reduce((n, s) => n + s.problems.length, 0);
  const group = (s: ReportSection) => {
    const items = s.problems
      .map((p) => {
        const links = p.links.length > 0 ? p.links : [{ row: s.id, label: "scenario" }];
        return `<li class="problem kind-${esc(p.kind)}"><span class="title">${esc(p.title)}</span>${esc(p.message)}${links.map((l) => `<a href="#${esc(l.row)}">${esc(l.label)}</a>`).join("")}</li>`;
      })
      .join("");
    return `<div class="group"><h3><a class="scenario-link" href="#${esc(s.id)}">${esc(s.title)}</a> <span class="count">${s.problems.length} failure${s.problems.length === 1 ? "" : "s"}</span></h3><ul>${items}</ul></div>`;
  };
  const head =
    total > 0
      ? `<section class="problems all"><h2>Failures (${total} in ${failing.length} scenario${failing.length === 1 ? "" : "s"})</h2>${failing.map(group).join("")}</section>`
      : `<section class="problems none"><h2>Failures (0)</h2><p>Every scenario passed.</p></section>`;
  const toc = orderSections(model.sections)
    .map((s) => `<li><a href="#${esc(s.id)}">${esc(s.title)}</a>${passBadge(s)}</li>`)
    .join("");
  return `${head}<h2>Scenarios (${model.sections.length})</h2><ul class="toc">${toc}</ul>`;
}

// Failed first, then the rest, each group in its own order.
const orderSections = (sections: readonly ReportSection[]) => [...sections.filter((s) => s.passed === false), ...sections.filter((s) => s.passed !== false)];

// Filters that need no script: each box is a checkbox, and the stylesheet hides what it excludes.
function filterBar(multi: boolean): string {
  const box = (id: string, label: string) => `<label><input type="checkbox" id="${id}"> ${esc(label)}</label>`;
  return `<form class="filter" aria-label="filter">${[
    multi ? box("only-failed", "failed scenarios only") : "",
    box("only-flagged", "calls a failure points at"),
    box("only-mutations", "mutations only"),
    box("only-faults", "faulted or unmatched only"),
    box("only-shots", "calls with screenshots"),
  ].join("")}</form>`;
}

/**
 * The whole report as one HTML document; no network. Each image is in it once. No script either,
 * unless a timeline's pages were packed: then the one script that unpacks them, allowed by its hash.
 */
export function renderReport(options: RenderOptions): string {
  const { model } = options;
  const single = model.sections.length === 1;
  const overall = model.sections.every((s) => s.passed !== false);
  const judged = model.sections.some((s) => s.passed !== undefined);
  const status = judged ? ` <span class="badge ${overall ? "pass" : "fail"}">${overall ? "passed" : "failed"}</span>` : "";
  const notes = model.notes.length > 0 ? `<ul class="notes">${model.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : "";
  const ctx = options.context ?? renderContext();
  const sections = (single ? model.sections : orderSections(model.sections)).map((s) => section(options, ctx, s, single)).join("\n");
  const images = [...ctx.images].map((id) => `.${imageClass(id)}{background-image:url("${cssUrl(options.imageSrc(id))}")}`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'${ctx.packed ? `; script-src ${PACKED_PAGES_SCRIPT_HASH}` : ""}">
<title>${esc(model.title)}</title><style>${REPORT_CSS}${ctx.packed ? PACKED_PAGES_CSS : ""}</style>
<style>
${images}
</style></head>
<body><header class="top"><h1>${esc(model.title)}${status}</h1>${facts([["input", `${model.input.kind}: ${model.input.file}`], ...model.facts])}${notes}${filterBar(!single)}</header>
<main>${single ? "" : overview(model)}${sections}
<footer>Generated by ${esc(options.generator)}.</footer></main>${ctx.packed ? `<script>${PACKED_PAGES_SCRIPT}</script>` : ""}</body></html>
`;
}

// A URL inside url("…"): data URIs and plain file names need only quotes, backslashes and newlines
// escaped. A base64 data URI (hundreds of KB) holds none: four plain searches find that out faster
// than the regular expression.
const cssUrl = (url: string) =>
  !url.includes('"') && !url.includes("\\") && !url.includes("\n") && !url.includes("\r")
    ? url
    : url.replace(/["\\\n\r]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
