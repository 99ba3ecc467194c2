/** The report's only stylesheet (inline; the file needs no network). */
export const REPORT_CSS = `
:root { --fg:#1d2430; --muted:#5b6472; --line:#d9dee6; --bg:#f6f7f9; --card:#fff; --bad:#b42318; --bad-bg:#fef3f2;
  --good:#067647; --good-bg:#ecfdf3; --warn:#b54708; --warn-bg:#fffaeb; --info:#175cd3; --info-bg:#eff8ff; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif; color:var(--fg); background:var(--bg); }
header.top { padding:20px 28px 12px; background:var(--card); border-bottom:1px solid var(--line); }
h1 { font-size:20px; margin:0 0 6px; }
h2 { font-size:16px; margin:22px 0 10px; }
main { padding:0 28px 40px; max-width:1400px; }
code, pre { font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",Menlo,monospace; }
dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:2px 14px; margin:8px 0 0; color:var(--muted); }
dl.facts dt { font-weight:600; } dl.facts dd { margin:0; color:var(--fg); overflow-wrap:anywhere; }
ul.notes { margin:8px 0 0; padding-left:18px; color:var(--muted); }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; border:1px solid var(--line); background:#fff; white-space:nowrap; }
.badge.pass { color:var(--good); background:var(--good-bg); border-color:#abefc6; }
.badge.fail, .badge.fault, .badge.error { color:var(--bad); background:var(--bad-bg); border-color:#fecdca; }
.badge.mutation { color:var(--info); background:var(--info-bg); border-color:#b2ddff; }
.badge.decision-done { color:var(--good); background:var(--good-bg); }
.badge.decision-verify_fresh_state { color:var(--warn); background:var(--warn-bg); border-color:#fedf89; }
.badge.decision-escalate { color:var(--bad); background:var(--bad-bg); }
.badge.change-identical { color:var(--muted); } .badge.change-similar { color:var(--warn); background:var(--warn-bg); }
.badge.change-changed { color:var(--info); background:var(--info-bg); }
section.problems { background:var(--bad-bg); border:1px solid #fecdca; border-radius:8px; padding:6px 16px 10px; margin-top:16px; }
section.problems.none { background:var(--good-bg); border-color:#abefc6; }
section.problems h2 { margin:8px 0; }
li.problem { margin:6px 0; } li.problem .title { font-weight:600; margin-right:6px; }
li.problem a { margin-left:6px; }
section.scenario { margin-top:26px; }
ol.timeline { list-style:none; margin:0; padding:0; }
div.page { content-visibility:auto; contain-intrinsic-size:auto 24000px; }
li.call { background:var(--card); border:1px solid var(--line); border-left:4px solid var(--line); border-radius:6px; margin:8px 0; padding:8px 12px; }
li.call.kind-mutation { border-left-color:#53b1fd; }
li.call.is-error { border-left-color:#f97066; }
li.call.flagged { box-shadow:0 0 0 2px #fda29b; }
li.call:target { box-shadow:0 0 0 3px #2e90fa; }
li.call.has-shots { display:grid; grid-template-columns:minmax(0,1fr) auto; column-gap:16px; }
li.call.has-shots .head { grid-column:1 / -1; }
li.call.has-shots .shots { margin-top:6px; justify-content:flex-end; align-items:flex-start; }
.call .head { display:flex; flex-wrap:wrap; gap:6px; align-items:center; }
.call .label { font-weight:700; min-width:56px; } .call .t { color:var(--muted); min-width:70px; }
.call .tool { font-weight:600; font-size:13.5px; }
.call .result { margin:6px 0 2px; } .call.is-error .result { color:var(--bad); }
.call .note { color:var(--muted); margin:2px 0; font-size:13px; }
.call pre.args { margin:6px 0 0; padding:6px 8px; background:var(--bg); border-radius:4px; max-height:160px; overflow:auto; }
.call details pre { max-height:320px; overflow:auto; background:var(--bg); padding:6px 8px; white-space:pre-wrap; overflow-wrap:anywhere; }
.shots { display:flex; flex-wrap:wrap; gap:12px; margin-top:8px; }
figure.shot { margin:0; max-width:380px; }
.frame { display:block; width:380px; max-width:100%; aspect-ratio:16/10; border:1px solid var(--line); border-radius:4px; background:#fff center / 100% 100% no-repeat; }
.frame.diffview { position:relative; isolation:isolate; background:#000; }
.diffview .layer { position:absolute; inset:0; background-size:100% 100%; background-repeat:no-repeat; }
.diffview > .layer { opacity:.3; filter:grayscale(1); }
.diffview .delta { position:absolute; inset:0; isolation:isolate; mix-blend-mode:screen; filter:grayscale(1) brightness(4) sepia(1) saturate(12) hue-rotate(-55deg); }
.diffview .delta .layer + .layer { mix-blend-mode:difference; }
figure.shot figcaption { font-size:12px; color:var(--muted); margin-top:3px; }
.same { font-size:12.5px; color:var(--muted); margin-top:6px; }
form.filter { display:flex; flex-wrap:wrap; gap:4px 16px; margin:10px 0 0; font-size:13px; color:var(--muted); }
form.filter label { cursor:pointer; }
body:has(#only-failed:checked) section.scenario.passed { display:none; }
body:has(#only-flagged:checked) li.call:not(.flagged) { display:none; }
body:has(#only-mutations:checked) li.call:not(.kind-mutation) { display:none; }
body:has(#only-faults:checked) li.call:not(.outcome-faulted):not(.outcome-unmatched) { display:none; }
body:has(#only-shots:checked) li.call:not(.has-shots) { display:none; }
section.scenario.passed { margin-top:10px; }
section.scenario > details > summary { cursor:pointer; }
section.scenario > details > summary h2 { display:inline; }
section.scenario.passed > details > summary h2 { color:var(--muted); font-weight:600; }
section.problems .group h3 { font-size:14px; margin:10px 0 4px; }
section.problems .group .count { color:var(--muted); font-weight:400; font-size:12.5px; }
section.problems .group ul { margin:0; padding-left:20px; }
ul.toc { columns:2; padding-left:18px; } ul.toc li { margin:2px 0; }
a.scenario-link { font-weight:600; }
footer { color:var(--muted); font-size:12px; margin-top:30px; }
`;
