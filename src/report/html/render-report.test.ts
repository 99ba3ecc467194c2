import { describe, expect, it } from "vitest";
import { compareShots } from "./compare-shots.js";
import type { ReportModel, ReportRow, ReportShot } from "./model.js";
import { renderReport } from "./render-report.js";

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
