import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compareShots, type ShotWalk } from "./compare-shots.js";
import type { ReportModel, ReportRow, ReportShot } from "./model.js";
import { PACK_AFTER, PACKED_PAGES_SCRIPT, PACKED_PAGES_SCRIPT_HASH } from "./packed-pages.js";
import { renderContext, renderReport, TIMELINE_PAGE, timelinePage } from "./render-report.js";

const shot = (ref: string): ReportShot => ({
  image: `img-${ref}`,
  source: { cassetteDir: "/c", ref: `frames/${ref.padEnd(64, "0")}.png` },
  label: "screenshot",
});

function row(n: number, extra: Partial<ReportRow> = {}): ReportRow {
  return { id: `call-${n}`, label: `#${n}`, method: "call", tool: "get_window_state", kind: "read", result: "ok", outcome: "replayed", shots: [], ...extra };
}

function model(rows: ReportRow[], problems: ReportModel["sections"][number]["problems"] = []): ReportModel {
  return {
    title: "t",
    input: { kind: "replay-log", file: "x.jsonl" },
    facts: [],
    notes: [],
    sections: [{ id: "s", title: "S", passed: problems.length === 0, facts: [], problems, rows }],
  };
}

const render = (m: ReportModel) => renderReport({ model: m, imageSrc: (id) => `data:image/png;base64,${id}`, generator: "test" });

describe("renderReport", () => {
  it("escapes everything that came from a recording", () => {
    const html = render(model([row(0, { tool: "<b>x</b>", args: '{"text":"</pre><script>alert(1)</script>"}', result: "a & b" })]));
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;/pre&gt;&lt;script&gt;");
    expect(html).toContain("a &amp; b");
  });

  it("escapes quotes, backslashes and newlines in an image URL, and leaves a base64 data URI as it is", () => {
    const shots = [shot("a"), shot("b")];
    const m = model([row(0, { shots })]);
    const html = renderReport({
      model: m,
      imageSrc: (id) => (id === "img-a" ? 'x.png");}body{color:red;}\\\n\r' : `data:image/png;base64,QUJD+/==`),
      generator: "test",
    });
    expect(html).toContain('url("x.png\\22 );}body{color:red;}\\5c \\a \\d ")');
    expect(html).toContain('url("data:image/png;base64,QUJD+/==")');
  });

  it("writes a full result once; a later row with the same result links to the first", () => {
    const html = render(model([row(0, { resultDetail: "tree A" }), row(1, { resultDetail: "tree B" }), row(2, { resultDetail: "tree A" })]));
    expect(html.match(/tree A/g)).toHaveLength(1);
    expect(html.match(/tree B/g)).toHaveLength(1);
    expect(html).toMatch(/id="call-2"[\s\S]*full result: same as <a href="#call-0">#0<\/a>/);
  });

  it("links each failure to its calls and flags them", () => {
    const html = render(
      model(
        [row(0), row(1, { kind: "mutation" })],
        [{ kind: "invariant", title: "no-replay-after-unknown", message: "m", links: [{ row: "call-1", label: "#1" }] }],
      ),
    );
    expect(html).toMatch(/<a href="#call-1">#1<\/a>/);
    expect(html).toMatch(/<li class="call kind-mutation outcome-replayed flagged[^"]*" id="call-1"/);
    expect(html).not.toMatch(/id="call-0"[^>]*flagged|flagged[^"]*" id="call-0"/);
    expect(html.indexOf('class="problems"')).toBeLessThan(html.indexOf('class="timeline"'));
  });
});

describe("compareShots", () => {
  it("compares each distinct pair once, and embeds each distinct frame once however often it is shown", async () => {
    // a run that flips between two screens: a b a b a b
    const rows = [0, 1, 2, 3, 4, 5].map((n) => row(n, { shots: [shot(n % 2 ? "b" : "a")] }));
    const asked: string[] = [];
    const counts = await compareShots({ rows, compare: async (prev, next) => (asked.push(`${prev.image}>${next.image}`), { kind: "changed", fraction: 0.5 }) });
    expect(counts).toEqual({ pairs: 5, compared: 2 });
    expect(asked).toEqual(["img-a>img-b", "img-b>img-a"]);
    expect(rows.slice(1).map((r) => r.shots[0]!.change?.kind)).toEqual(["changed", "changed", "changed", "changed", "changed"]);
    const html = render(model(rows));
    expect(html.match(/data:image\/png;base64,img-a/g)).toHaveLength(1);
    expect(html.match(/data:image\/png;base64,img-b/g)).toHaveLength(1);
    // every screenshot and every difference view names its frames' classes
    expect(html.match(/class="frame im-img-a"/g)).toHaveLength(3);
    expect(html.match(/class="frame diffview"/g)).toHaveLength(5);
    expect(html).not.toContain("<img");
  });

  it("compares every consecutive pair across rows, without decoding identical refs", async () => {
    const rows = [row(0, { shots: [shot("a")] }), row(1), row(2, { shots: [shot("a")] }), row(3, { shots: [shot("b"), shot("c")] })];
    const asked: string[] = [];
    const pairs = await compareShots({
      rows,
      compare: async (prev, next) => {
        asked.push(`${prev.image}>${next.image}`);
        return { kind: "changed" };
      },
    });
    expect(pairs).toEqual({ pairs: 3, compared: 2 });
    expect(asked).toEqual(["img-a>img-b", "img-b>img-c"]);
    expect(rows[2]!.shots[0]!.change).toMatchObject({ kind: "identical", previousRow: "call-0" });
    expect(rows[3]!.shots[1]!.change).toMatchObject({ kind: "changed", previousRow: "call-3", previousImage: "img-b" });
    const html = render(model(rows));
    expect(html.match(/data:image\/png;base64,img-a/g)).toHaveLength(1);
    expect(html).toContain("same image, not repeated");
  });
});

describe("a long timeline", () => {
  it("is paged: the browser lays out a page when it is scrolled to, every call stays in the document, the failures come first", () => {
    const rows = Array.from({ length: 450 }, (_, n) => row(n));
    const html = render(model(rows, [{ kind: "invariant", title: "bounded-retries", message: "m", links: [{ row: "call-420", label: "#420" }] }]));
    const pages = html.match(/<div class="page" aria-label="[^"]*"><ol class="timeline" start="\d+">/g) ?? [];
    expect(pages).toEqual([
      '<div class="page" aria-label="#0 – #199"><ol class="timeline" start="1">',
      '<div class="page" aria-label="#200 – #399"><ol class="timeline" start="201">',
      '<div class="page" aria-label="#400 – #449"><ol class="timeline" start="401">',
    ]);
    expect(html).toMatch(/div\.page \{ content-visibility:auto;/);
    for (const n of [0, 199, 200, 420, 449]) expect(html).toContain(`id="call-${n}"`);
    expect(html.indexOf('href="#call-420"')).toBeLessThan(html.indexOf('<div class="page"'));
  });

  it("of a few calls is one list, as before", () => {
    const html = render(model([row(0), row(1)]));
    expect(html).not.toContain('<div class="page"');
    expect(html).toContain('<ol class="timeline"><li');
  });
});

describe("a timeline of more than PACK_AFTER calls", () => {
  const pack = (html: string) => gzipSync(html).toString("base64");
  const unpack = (data: string) => gunzipSync(Buffer.from(data, "base64")).toString("utf8");
  const packed = (m: ReportModel) => renderReport({ model: m, imageSrc: (id) => `data:image/png;base64,${id}`, generator: "test", packPage: pack });

  it("keeps its first page as markup and packs the others, each with the ids of its calls; the failures still come first", () => {
    const rows = Array.from({ length: PACK_AFTER + 1 }, (_, n) => row(n));
    const html = packed(model(rows, [{ kind: "invariant", title: "bounded-retries", message: "m", links: [{ row: "call-2000", label: "#2000" }] }]));
    expect(html.match(/<li class="call/g)).toHaveLength(TIMELINE_PAGE);
    const pages = [
      ...html.matchAll(
        /<details class="page packed" aria-label="([^"]*)" data-ids="([^"]*)"><summary>[^<]*<\/summary><script type="application\/x-cua-report-page">([^<]*)<\/script><\/details>/g,
      ),
    ];
    expect(pages.map((p) => p[1])).toEqual([
      "#200 – #399",
      "#400 – #599",
      "#600 – #799",
      "#800 – #999",
      "#1000 – #1199",
      "#1200 – #1399",
      "#1400 – #1599",
      "#1600 – #1799",
      "#1800 – #1999",
      "#2000 – #2000",
    ]);
    expect(pages[0]![2]!.split(" ")).toEqual(rows.slice(200, 400).map((r) => r.id));
    // a packed page is the markup the page would have had
    const page = unpack(pages[0]![3]!);
    expect(page.startsWith('<ol class="timeline" start="201"><li class="call kind-read outcome-replayed" id="call-200"')).toBe(true);
    expect(page.match(/<li class="call/g)).toHaveLength(TIMELINE_PAGE);
    expect(unpack(pages[9]![3]!)).toMatch(/class="call kind-read outcome-replayed flagged" id="call-2000"/);
    expect(html.indexOf('href="#call-2000"')).toBeLessThan(html.indexOf("<details"));
    // the one script, allowed by its hash and nothing else
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain(`<script>${PACKED_PAGES_SCRIPT}</script>`);
    expect(html).toContain(`style-src 'unsafe-inline'; script-src ${PACKED_PAGES_SCRIPT_HASH}">`);
  });

  it("allows its script by the script's own SHA-256", () => {
    expect(PACKED_PAGES_SCRIPT_HASH).toBe(`'sha256-${createHash("sha256").update(PACKED_PAGES_SCRIPT).digest("base64")}'`);
  });

  it("is not packed at PACK_AFTER calls or without a packer: no script, as before", () => {
    const rows = Array.from({ length: PACK_AFTER }, (_, n) => row(n));
    for (const html of [packed(model(rows)), render(model(Array.from({ length: PACK_AFTER + 1 }, (_, n) => row(n))))]) {
      expect(html).not.toContain("<script");
      expect(html).not.toContain("script-src");
      expect(html).not.toContain("<details");
    }
  });

  it("built a page at a time is the timeline built whole", async () => {
    const rows = () => Array.from({ length: PACK_AFTER + 300 }, (_, n) => row(n, n % 150 === 0 ? { shots: [shot(n % 300 ? "b" : "a")] } : {}));
    const whole = rows();
    await compareShots({ rows: whole, compare: async () => ({ kind: "changed", fraction: 0.5 }) });
    const expected = packed(model(whole));
    // the same rows a page at a time, the walk carried from page to page
    const paged = rows();
    const walk: ShotWalk = { known: new Map() };
    const ctx = renderContext();
    const options = { model: model([]), imageSrc: (id: string) => `data:image/png;base64,${id}`, generator: "test", packPage: pack, context: ctx };
    const labels = new Map<string, string>();
    const pages: string[] = [];
    let compared = 0;
    for (let start = 0; start < paged.length; start += TIMELINE_PAGE) {
      const page = paged.slice(start, start + TIMELINE_PAGE);
      for (const r of page) if (r.shots.length > 0) labels.set(r.id, r.label);
      compared += (await compareShots({ rows: page, compare: async () => ({ kind: "changed", fraction: 0.5 }), walk })).compared;
      pages.push(timelinePage({ options, ctx, rows: page, start, total: paged.length, labels }));
    }
    expect(compared).toBe(2);
    options.model.sections[0]!.timeline = { count: paged.length, pages };
    expect(renderReport(options)).toBe(expected);
  });
});
