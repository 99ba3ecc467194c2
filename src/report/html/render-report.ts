import { esc } from "./escape.js";
import type { ReportModel, ReportProblem, ReportRow, ReportSection, ReportShot } from "./model.js";
import { REPORT_CSS } from "./report-style.js";

export interface RenderOptions {
  model: ReportModel;
  /** The `src` for an image id: a data: URI (self-contained) or a relative file name. */
  imageSrc: (image: string) => string;
  /** Pixel size of an image, for width/height attributes (no layout jumps). */
  imageSize?: (image: string) => { width: number; height: number } | undefined;
  /** Shown in the footer, e.g. "cua-contract 0.1.0". */
  generator: string;
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

function img(options: RenderOptions, image: string, alt: string, cls = ""): string {
  const size = options.imageSize?.(image);
  const dims = size ? ` width="${size.width}" height="${size.height}"` : "";
  return `<img${cls ? ` class="${cls}"` : ""} src="${esc(options.imageSrc(image))}" alt="${esc(alt)}"${dims} decoding="async">`;
}

function shot(options: RenderOptions, row: ReportRow, s: ReportShot, rowLabels: Map<string, string>): string {
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
  const main = `<figure class="shot" data-image="${esc(s.image)}">${img(options, s.image, `${s.label} of ${row.label}`)}<figcaption>${esc(s.label)} · ${badge}</figcaption></figure>`;
  if (!change?.diff) return main;
  return `${main}<figure class="shot diff" data-image="${esc(change.diff)}">${img(options, change.diff, `what changed since ${prevLabel}`)}<figcaption>diff vs ${esc(prevLabel)} (changed pixels in red)</figcaption></figure>`;
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

function row(options: RenderOptions, r: ReportRow, rowLabels: Map<string, string>): string {
  const classes = ["call", `kind-${r.kind}`, `outcome-${r.outcome}`, r.isError ? "is-error" : "", r.flagged ? "flagged" : ""].filter(Boolean).join(" ");
  const name = r.tool ?? r.method;
  const epoch =
    r.epochBefore === undefined ? "" : r.epochAfter !== undefined && r.epochAfter !== r.epochBefore ? `epoch ${r.epochBefore} → ${r.epochAfter}` : `epoch ${r.epochBefore}`;
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
    r.resultDetail ? `<details><summary>full result</summary><pre>${esc(r.resultDetail)}</pre></details>` : "",
  ].join("");
  const shots = r.shots.length > 0 ? `<div class="shots">${r.shots.map((s) => shot(options, r, s, rowLabels)).join("")}</div>` : "";
  return `<li class="${classes}${shots ? " has-shots" : ""}" id="${esc(r.id)}" data-tool="${esc(name)}"><div class="head">${head}</div><div class="main">${body}</div>${shots}</li>`;
}

function section(options: RenderOptions, s: ReportSection, single: boolean): string {
  const flagged = new Set(s.problems.flatMap((p) => p.links.map((l) => l.row)));
  const mark = (r: ReportRow) => (flagged.has(r.id) ? { ...r, flagged: true } : r);
  const rows = s.rows.map(mark);
  const steps = (s.steps ?? []).map(mark);
  const labels = new Map([...steps, ...rows].map((r) => [r.id, r.label]));
  const badge = s.passed === undefined ? "" : ` <span class="badge ${s.passed ? "pass" : "fail"}">${s.passed ? "passed" : "failed"}</span>`;
  const heading = single ? "" : `<h2>${esc(s.title)}${badge}</h2>`;
  const stepList =
    steps.length > 0
      ? `<h2>Harness steps (${steps.length})</h2><ol class="timeline steps">${steps.map((r) => row(options, r, labels)).join("\n")}</ol>`
      : "";
  const timeline =
    rows.length > 0
      ? `<h2>Timeline (${rows.length} call${rows.length === 1 ? "" : "s"})</h2><ol class="timeline">${rows.map((r) => row(options, r, labels)).join("\n")}</ol>`
      : steps.length > 0
        ? ""
        : `<p class="note">No calls to show.</p>`;
  return `<section class="scenario" id="${esc(s.id)}">${heading}${facts(s.facts)}${problems(s)}${stepList}${timeline}</section>`;
}

// With several sections (a check run), every failure is listed first, each linking to its calls or its section.
function overview(model: ReportModel): string {
  const all = model.sections.flatMap((s) => s.problems.map((p) => ({ s, p })));
  const items = all
    .map(({ s, p }) => {
      const links = p.links.length > 0 ? p.links : [{ row: s.id, label: "scenario" }];
      return `<li class="problem kind-${esc(p.kind)}"><a class="scenario-link" href="#${esc(s.id)}">${esc(s.title)}</a> — <span class="title">${esc(p.title)}</span>${esc(p.message)}${links
        .map((l) => `<a href="#${esc(l.row)}">${esc(l.label)}</a>`)
        .join("")}</li>`;
    })
    .join("");
  const head = all.length > 0 ? `<section class="problems all"><h2>All failures (${all.length})</h2><ul>${items}</ul></section>` : `<section class="problems none"><h2>All failures (0)</h2><p>Every scenario passed.</p></section>`;
  const toc = model.sections
    .map((s) => `<li><a href="#${esc(s.id)}">${esc(s.title)}</a> ${s.passed === undefined ? "" : `<span class="badge ${s.passed ? "pass" : "fail"}">${s.passed ? "passed" : "failed"}</span>`}</li>`)
    .join("");
  return `${head}<h2>Scenarios (${model.sections.length})</h2><ul class="toc">${toc}</ul>`;
}

/** The whole report as one HTML document; no scripts, no network. */
export function renderReport(options: RenderOptions): string {
  const { model } = options;
  const single = model.sections.length === 1;
  const overall = model.sections.every((s) => s.passed !== false);
  const judged = model.sections.some((s) => s.passed !== undefined);
  const status = judged ? ` <span class="badge ${overall ? "pass" : "fail"}">${overall ? "passed" : "failed"}</span>` : "";
  const notes = model.notes.length > 0 ? `<ul class="notes">${model.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'">
<title>${esc(model.title)}</title><style>${REPORT_CSS}</style></head>
<body><header class="top"><h1>${esc(model.title)}${status}</h1>${facts([["input", `${model.input.kind}: ${model.input.file}`], ...model.facts])}${notes}</header>
<main>${single ? "" : overview(model)}${model.sections.map((s) => section(options, s, single)).join("\n")}
<footer>Generated by ${esc(options.generator)}.</footer></main></body></html>
`;
}
