// The stylesheet and script inlined into report.html. They live here, apart from the markup, so the page's
// Content-Security-Policy can pin them by hash: nothing else (not even markup a hostile target managed to sneak
// into a response body) can run or style the page.

export const STYLE = `
:root {
  --ink: #1f2328; --muted: #59636e; --rule: #d1d9e0; --soft: #f6f8fa; --link: #0550ae;
  --fail: #b42318; --fail-bg: #fdecea; --error: #8e1f6b; --error-bg: #f9e8f3;
  --warn: #8a5a00; --warn-bg: #fff3d6; --known: #5b4a9e; --known-bg: #efebfa;
  --skip: #57606a; --skip-bg: #eef1f4; --pass: #1a7f37; --pass-bg: #e3f6e8;
  --observed: #0b5cad; --observed-bg: #e5f0fb;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; color: var(--ink); background: #fff; font: 14px/1.45 var(--sans); font-variant-numeric: tabular-nums; }
main { max-width: 1280px; margin: 0 auto; padding: 24px 28px 48px; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, kbd { font-family: var(--mono); font-size: .9em; }
pre code, .matrix code { font-size: inherit; }
h1 { font-size: 13px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); margin: 0 0 10px; }
h2 { font-size: 18px; font-weight: 600; margin: 36px 0 4px; padding-bottom: 6px; border-bottom: 1px solid var(--rule); }
h2 .count { color: var(--muted); font-weight: 400; }
h3 { font-size: 14px; font-weight: 600; margin: 20px 0 6px; }
p.lead { color: var(--muted); margin: 4px 0 12px; max-width: 80ch; }
.muted { color: var(--muted); }
table { border-collapse: collapse; }
th { text-align: left; font-weight: 600; }

/* The verdict: the first thing on the page, in words as well as colour. */
.verdict { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 20px; padding: 14px 18px; border: 1px solid var(--rule); border-left: 6px solid; border-radius: 4px; }
.verdict.v-pass { border-left-color: var(--pass); background: #f3fbf5; }
.verdict.v-fail { border-left-color: var(--fail); background: #fef6f5; }
.verdict-word { font-size: 26px; font-weight: 700; letter-spacing: .02em; }
.verdict.v-pass .verdict-word { color: var(--pass); }
.verdict.v-fail .verdict-word { color: var(--fail); }
.verdict.v-incomplete, .verdict.v-known { border-left-color: var(--warn); background: #fffaf0; }
.verdict.v-incomplete .verdict-word, .verdict.v-known .verdict-word { color: var(--warn); }
.verdict-why { color: var(--ink); }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 2px 24px; margin: 14px 0 0; }
.facts div { display: flex; gap: 8px; min-width: 0; padding: 3px 0; border-bottom: 1px dotted var(--rule); }
.facts dt { color: var(--muted); flex: none; width: 88px; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.facts abbr { text-decoration: underline dotted; cursor: help; }
.warning { margin: 12px 0 0; padding: 8px 12px; border: 1px solid #e3c26b; background: #fffaea; border-radius: 4px; }
.counts { margin-top: 16px; }
.counts th, .counts td { padding: 3px 10px; border-bottom: 1px solid var(--rule); text-align: right; }
.counts th:first-child, .counts td:first-child { text-align: left; }
.counts thead th { font-size: 12px; color: var(--muted); font-weight: 600; }
.counts td.zero { color: #b7bfc7; }
.counts tfoot td { font-weight: 600; border-bottom: 0; }
nav.toc { margin: 18px 0 0; display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 13px; }

/* Verdict labels: colour plus a word, so they read in greyscale and for colour-blind readers too. */
.badge { display: inline-block; min-width: 52px; padding: 0 6px; border: 1px solid; border-radius: 3px; font: 600 11px/18px var(--sans); letter-spacing: .04em; text-align: center; text-transform: uppercase; white-space: nowrap; }
.v-fail { --c: var(--fail); --bg: var(--fail-bg); }
.v-error { --c: var(--error); --bg: var(--error-bg); }
.v-warn { --c: var(--warn); --bg: var(--warn-bg); }
.v-known-failure { --c: var(--known); --bg: var(--known-bg); }
.v-skip { --c: var(--skip); --bg: var(--skip-bg); }
.v-pass { --c: var(--pass); --bg: var(--pass-bg); }
.v-observed { --c: var(--observed); --bg: var(--observed-bg); }
.v-empty { --c: #aab3bc; --bg: #fff; }
.badge { color: var(--c); background: var(--bg); border-color: color-mix(in srgb, var(--c) 35%, transparent); }
.level { display: inline-block; min-width: 58px; font: 600 11px/18px var(--sans); letter-spacing: .04em; color: var(--muted); }

/* The matrix: endpoints by clause family. */
.matrix-wrap { overflow-x: auto; }
table.matrix { font-size: 12.5px; }
.matrix th, .matrix td { border: 1px solid var(--rule); padding: 0; }
.matrix thead th { padding: 4px 6px; font-size: 11.5px; font-weight: 600; color: var(--muted); text-align: center; vertical-align: bottom; background: var(--soft); }
.matrix tbody th { padding: 2px 8px; font-weight: 400; white-space: nowrap; }
.matrix .n { text-align: right; color: var(--muted); width: 28px; }
.matrix .op code { font-size: 12px; }
.matrix .method { display: inline-block; width: 52px; font-weight: 600; }
.matrix td.cell { width: 74px; text-align: center; }
.matrix td.cell a, .matrix td.cell span { display: block; padding: 2px 4px; font-size: 10.5px; font-weight: 600; letter-spacing: .03em; text-transform: uppercase; }
.matrix td.cell a { color: var(--c); background: var(--bg); }
.matrix td.cell a:hover { text-decoration: none; outline: 2px solid var(--c); outline-offset: -2px; }
.matrix td.cell.v-fail a, .matrix td.cell.v-error a { color: #fff; background: var(--c); }
.matrix td.cell small { font-weight: 400; opacity: .8; margin-left: 3px; }
.matrix td.empty span { color: #c4cbd2; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 8px 0 0; font-size: 12px; color: var(--muted); align-items: center; }

/* Implementation profile. */
table.profile { width: 100%; font-size: 13px; }
.profile th, .profile td { padding: 5px 8px; border-bottom: 1px solid var(--rule); vertical-align: top; }
.profile thead th { font-size: 12px; color: var(--muted); }
.profile tr.mismatch td { background: var(--warn-bg); }
.profile tr.mismatch td:first-child { box-shadow: inset 4px 0 0 var(--warn); }
.profile .q { color: var(--muted); }
.profile ul { margin: 0; padding: 0; list-style: none; }
.profile .status { white-space: nowrap; font-weight: 600; font-size: 12px; }
.profile tr.mismatch .status { color: var(--warn); }
.profile tr.varies td:first-child { box-shadow: inset 4px 0 0 #d0a53a; }
.profile .status { font-weight: 400; color: var(--muted); }
.profile tr.mismatch .status, .profile tr.varies .status { font-weight: 600; color: var(--warn); }
.profile code.key { color: var(--muted); }
.profile td:nth-child(1) { width: 34%; } .profile td:nth-child(2) { width: 22%; } .profile td:nth-child(4) { width: 12%; }
details.inline { display: inline; }
details.inline > summary { display: inline; color: var(--link); }
details.inline[open] > summary { margin-right: 6px; }

/* Filters. */
#filters { position: sticky; top: 0; z-index: 2; margin: 26px 0 0; padding: 8px 0; background: #fff; border-bottom: 1px solid var(--rule); box-shadow: 0 6px 6px -6px rgba(31,35,40,.15); display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; font-size: 12.5px; }
#filters fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
#filters legend { float: left; margin-right: 6px; color: var(--muted); font-weight: 600; }
#filters label.chip { display: inline-flex; align-items: center; gap: 4px; padding: 1px 7px 1px 4px; border: 1px solid var(--rule); border-radius: 3px; cursor: pointer; user-select: none; }
#filters label.chip input { margin: 0; }
#filters label.chip span.n { color: var(--muted); }
#filters select, #filters input[type=search] { font: inherit; padding: 2px 4px; border: 1px solid var(--rule); border-radius: 3px; background: #fff; max-width: 280px; }
#filters button, .copy { font: inherit; font-size: 12px; padding: 1px 8px; border: 1px solid var(--rule); border-radius: 3px; background: var(--soft); cursor: pointer; }
#shown { color: var(--muted); margin-left: auto; }
#cell-filter { padding: 2px 8px; background: #ddf4ff; border: 1px solid #9cd1f5; border-radius: 3px; }

/* Cases. */
.card { margin: 14px 0; border: 1px solid var(--rule); border-left: 4px solid var(--c); border-radius: 4px; }
.card > header { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; padding: 8px 12px; background: var(--soft); border-bottom: 1px solid var(--rule); }
.card > header .id { font-weight: 600; }
.card .body { padding: 8px 12px 12px; }
.meta { font-size: 12px; color: var(--muted); }
.reason { margin: 6px 0; padding: 6px 10px; background: var(--soft); border-left: 3px solid var(--rule); }
.finding { margin: 10px 0 0; }
.assertion { margin: 8px 0; padding: 0 0 0 10px; border-left: 2px solid var(--c, var(--rule)); }
.assertion .clause { font-weight: 600; }
.assertion .got { margin: 4px 0 0; }
.assertion .got b { font-weight: 600; }
blockquote.quote { margin: 4px 0; padding: 2px 10px; color: #33393f; border-left: 3px solid var(--rule); font-style: italic; }
blockquote.quote cite { display: block; font-style: normal; font-size: 12px; color: var(--muted); }
.basis { margin: 4px 0; font-size: 13px; color: #33393f; }
.exchange { margin: 8px 0; border: 1px solid var(--rule); border-radius: 4px; }
.ex-head { padding: 4px 10px; font-size: 12px; color: var(--muted); background: var(--soft); border-bottom: 1px solid var(--rule); }
.ex-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
.ex-grid > div { padding: 6px 10px; min-width: 0; }
.ex-grid > div + div { border-left: 1px solid var(--rule); }
.ex-grid h5 { margin: 0 0 4px; font-size: 11px; letter-spacing: .05em; text-transform: uppercase; color: var(--muted); }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.line { font-weight: 600; margin-bottom: 4px; }
table.headers { font-family: var(--mono); font-size: 12px; margin-bottom: 4px; }
table.headers td { padding: 0 10px 0 0; vertical-align: top; overflow-wrap: anywhere; }
table.headers td:first-child { color: var(--muted); white-space: nowrap; }
pre.body { max-height: 420px; overflow: auto; padding: 6px 8px; background: var(--soft); border-radius: 3px; }
.transport { color: var(--error); font-weight: 600; }
.curl { display: flex; gap: 8px; align-items: flex-start; padding: 6px 10px; border-top: 1px solid var(--rule); background: #fbfcfd; }
.curl .label { flex: none; font-size: 11px; letter-spacing: .05em; text-transform: uppercase; color: var(--muted); padding-top: 2px; }
.curl pre { flex: 1; }
details > summary { cursor: pointer; }
details.more { margin: 8px 0 0; }
details.more > summary { font-size: 12.5px; color: var(--muted); }
table.assertions { width: 100%; font-size: 12.5px; margin: 4px 0; }
table.observations { width: auto; min-width: 40%; }
.assertions th, .assertions td { padding: 3px 8px 3px 0; border-bottom: 1px solid #eaeef2; vertical-align: top; }
.assertions thead th { font-size: 11.5px; color: var(--muted); }
.assertions td.ok { color: var(--pass); font-weight: 600; }
.assertions td.bad { color: var(--fail); font-weight: 600; }
.group h3 code { font-weight: 600; }
details.row { border-bottom: 1px solid #eaeef2; }
details.row > summary { display: grid; grid-template-columns: 84px 62px minmax(0, 2.2fr) minmax(0, 3fr) 90px 56px; gap: 8px; align-items: baseline; padding: 4px 4px; list-style: none; }
details.row > summary::-webkit-details-marker { display: none; }
details.row > summary:hover { background: var(--soft); }
details.row[open] > summary { background: var(--soft); }
details.row > summary .id { font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
details.row > summary .eps, details.row > summary .ms { font-size: 12px; color: var(--muted); }
details.row > summary .ms { text-align: right; }
details.row > .body { padding: 4px 8px 12px 96px; }
:target > summary, article:target > header { outline: 2px solid #54aeff; outline-offset: -2px; }
table.ledger { width: 100%; font-size: 12.5px; }
.ledger th, .ledger td { padding: 3px 8px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
.ledger thead th { color: var(--muted); font-size: 12px; }
footer { margin-top: 40px; padding-top: 10px; border-top: 1px solid var(--rule); font-size: 12px; color: var(--muted); }

@media (max-width: 900px) {
  .ex-grid { grid-template-columns: minmax(0, 1fr); }
  .ex-grid > div + div { border-left: 0; border-top: 1px solid var(--rule); }
  details.row > summary { grid-template-columns: 84px 62px minmax(0, 1fr); }
  details.row > summary .title, details.row > summary .eps, details.row > summary .ms { display: none; }
  details.row > .body { padding-left: 8px; }
}

@media print {
  @page { margin: 14mm 12mm; }
  body { font-size: 11px; }
  main { max-width: none; padding: 0; }
  #filters, nav.toc, .copy, .no-print { display: none !important; }
  /* Paper has no clicks: everything is open and nothing is filtered away. */
  .case[hidden], .group[hidden] { display: block !important; }
  details::details-content { content-visibility: visible; display: block; }
  details.row > summary { grid-template-columns: 70px 52px minmax(0, 1fr) minmax(0, 1.4fr); }
  details.row > summary .eps, details.row > summary .ms { display: none; }
  details.row > .body { padding-left: 12px; }
  pre.body { max-height: none; overflow: visible; }
  .card, .exchange, tr, .assertion { break-inside: avoid; }
  h2 { break-after: avoid; }
  a { color: inherit; }
  .matrix td.cell.v-fail a, .matrix td.cell.v-error a { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .badge, .matrix td.cell a, .verdict, .profile tr.mismatch td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

export const SCRIPT = `
(function () {
  'use strict';
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var bar = document.getElementById('filters');
  if (!bar) return;
  bar.hidden = false;
  var cases = all('.case');
  var groups = all('.group');
  var shown = document.getElementById('shown');
  var cellNote = document.getElementById('cell-filter');
  var cellText = document.getElementById('cell-text');
  var tag = document.getElementById('f-tag');
  var endpoint = document.getElementById('f-endpoint');
  var search = document.getElementById('f-search');
  var cell = '';

  function checked(name) {
    return all('input[name=' + name + ']').filter(function (i) { return i.checked; }).map(function (i) { return i.value; });
  }
  function words(el, key) { return (el.getAttribute('data-' + key) || '').split(' '); }

  function apply() {
    var verdicts = checked('verdict');
    var levels = checked('level');
    var text = search.value.trim().toLowerCase();
    var visible = 0;
    cases.forEach(function (el) {
      var ok = verdicts.indexOf(el.getAttribute('data-verdict')) >= 0
        && levels.indexOf(el.getAttribute('data-level')) >= 0
        && (!tag.value || words(el, 'tags').indexOf(tag.value) >= 0)
        && (!endpoint.value || words(el, 'endpoints').indexOf(endpoint.value) >= 0)
        && (!cell || words(el, 'cells').indexOf(cell) >= 0)
        && (!text || (el.getAttribute('data-search') || '').indexOf(text) >= 0);
      el.hidden = !ok;
      if (ok && el.classList.contains('row')) visible++;
    });
    groups.forEach(function (g) { g.hidden = all('.case', g).every(function (el) { return el.hidden; }); });
    all('[data-empty-note]').forEach(function (note) {
      var section = document.getElementById(note.getAttribute('data-empty-note'));
      note.hidden = !section || all('.case', section).some(function (el) { return !el.hidden; }) || all('.case', section).length === 0;
    });
    shown.textContent = visible + ' of ' + all('.case.row').length + ' cases shown';
    cellNote.hidden = !cell;
  }

  function fromHash() {
    var m = /^#cell=(\\d+):([\\w-]+)$/.exec(location.hash);
    if (!m) return false;
    cell = m[1] + ':' + m[2];
    var link = document.querySelector('a[data-cell="' + cell + '"]');
    cellText.textContent = link ? link.getAttribute('data-label') : cell;
    apply();
    var first = cases.filter(function (el) { return !el.hidden; })[0];
    if (first) {
      if (first.tagName === 'DETAILS' && all('.case.card').every(function (c) { return c.hidden; })) first.open = true;
      first.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -bar.offsetHeight - 8);
    }
    return true;
  }

  bar.addEventListener('change', apply);
  search.addEventListener('input', apply);
  document.getElementById('f-problems').addEventListener('click', function () {
    all('input[name=verdict]').forEach(function (i) { i.checked = ['fail', 'error', 'warn', 'known-failure'].indexOf(i.value) >= 0; });
    apply();
  });
  document.getElementById('f-reset').addEventListener('click', function () {
    all('#filters input[type=checkbox]').forEach(function (i) { i.checked = true; });
    tag.value = ''; endpoint.value = ''; search.value = ''; cell = '';
    if (/^#cell=/.test(location.hash)) history.replaceState(null, '', location.pathname + location.search);
    apply();
  });
  document.getElementById('cell-clear').addEventListener('click', function () {
    cell = '';
    history.replaceState(null, '', location.pathname + location.search);
    apply();
  });
  window.addEventListener('hashchange', fromHash);

  all('button.copy').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = button.parentNode.querySelector('pre').textContent;
      var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 1500); };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () {});
    });
  });

  // Browsers without ::details-content print closed <details> empty: open them for printing, then restore.
  var closed = [];
  window.addEventListener('beforeprint', function () {
    closed = all('details:not([open])');
    closed.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () { closed.forEach(function (d) { d.open = false; }); closed = []; });

  if (!fromHash()) apply();
})();
`;
