// report.html: one self-contained page a certifier can read, print and archive, ordered by what a reader needs: the
// verdict, what blocks certification (failures, then MUST cases not judged and what would unlock them), the matrix,
// the implementation profile, then everything else. Everything is rendered here from report.json, except the
// exchanges: they are embedded once as compressed data (html-data.ts) and drawn by the page's script when a case is
// opened, which keeps a full run's page light. The page loads nothing (a Content-Security-Policy forbids it).
import { createHash } from 'node:crypto';
import type { InterpretationProfile } from '../core/report.js';
import { residueSummary } from '../core/residue.js';
import type { CaseResult } from '../core/results.js';
import { operations, specHash } from '../spec/index.js';
import { SCRIPT, STYLE } from './html-assets.js';
import { blockers } from './html-failures.js';
import { assertionSlot, clauseTitle, dataAttributes, endpointsText, exchangeSlot, exploreFigures, failureCard, specIndex, type SpecIndex } from './html-card.js';
import { LABEL, MEANING, anchor, badge, esc, plural, targetText } from './html-text.js';
import { packPageData, pageData } from './html-data.js';
import type { Report } from './merge.js';
import { VERDICT_WORDS, verdictWhy } from '../core/verdict.js';
import { CASE_VERDICTS, RUN_VERDICT_CLASS, isProblem, shownVerdict as shown, worstFirst, worstVerdict as worst } from '../core/case-view.js';
import type { Latency } from '../engine/latency.js';
import type { TransportStats } from '../http/throttle.js';
import { transportSummary } from './transport.js';

const LEVELS = ['MUST', 'SHOULD', 'OBSERVE'];
/** The matrix column of OBSERVE cases: open points have no clause family. */
const OPEN = 'open-points';
/** A matrix cell's count of passes is a tick; the other verdicts keep their word. */
const CELL_WORD: Record<string, string> = { ...LABEL, pass: '✓' };

const utc = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');

/**
 * The matrix cells a case contributes to, with the verdict it gives each: a family whose assertions failed gets the
 * failure (fail for MUST, warn for SHOULD), so an auth case that broke the envelope colours the envelope cell, not
 * the auth cell. A case that could not be judged (skip, error) marks the families of its own clauses.
 */
export function caseCells(c: CaseResult, spec: SpecIndex): Map<string, string> {
  const familyOf = (id: string): string => spec.clause.get(id)?.family ?? (spec.interpretation.has(id) ? OPEN : 'other');
  const own = new Set(c.clauses.map(familyOf));
  const families = new Set([...own, ...c.assertions.map((a) => familyOf(a.clause))]);
  const cells = new Map<string, string>();
  for (const family of families) {
    const failed = c.assertions.filter((a) => !a.passed && familyOf(a.clause) === family);
    let verdict: string;
    if (failed.length) verdict = c.baseline ? 'known-failure' : failed.some((a) => a.level === 'MUST') ? 'fail' : 'warn';
    else if (own.has(family) && (c.verdict === 'skip' || c.verdict === 'error')) verdict = c.verdict;
    else verdict = family === OPEN ? 'observed' : 'pass';
    for (const e of c.endpoints) cells.set(`${e}:${family}`, verdict);
  }
  return cells;
}

export function htmlReport(report: Report): string {
  const spec = specIndex();
  const cellsByCase = new Map(report.cases.map((c) => [c.id, caseCells(c, spec)]));
  const failures = report.cases.filter(isProblem).sort(worstFirst);
  const failureIds = new Set(failures.map((c) => c.id));
  const known = report.cases.filter((c) => c.baseline);
  const title = `${VERDICT_WORDS[report.summary.verdict]} · ${report.run.target.baseUrl} · rdx-conformance report`;
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${sha256(STYLE)}'`,
    `script-src 'sha256-${sha256(SCRIPT)}'`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

  const body = [
    header(report, failures),
    filters(report),
    `<section id="failures"><h2>Failures <span class="count">(${failures.length})</span></h2>`,
    failures.length
      ? `<p class="lead">Every case that broke a clause or got no answer, worst first: the clause and its words in the spec, what was expected and what came back, the exchange it rests on, and a curl line to reproduce it. Set <code>RDX_ACCESS_TOKEN</code> to a token from the token endpoint (and <code>RDX_CLIENT_SECRET</code> for token requests) before running one.</p><p class="muted" data-empty-note="failures" hidden>No failure matches the filters.</p>${failures.map((c) => failureCard(c, spec, cellsByCase)).join('\n')}`
      : '<p class="lead">No case failed.</p>',
    '</section>',
    notJudged(report),
    matrix(report, spec, cellsByCase),
    profile(report),
    `<section id="counts"><h2>Counts</h2>${countsTable(report)}</section>`,
    allCases(report, spec, cellsByCase, failureIds),
    residue(report),
    knownFailures(report, known),
    footer(report),
  ].join('\n');

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="generator" content="rdx-conformance ${esc(report.harness.version)}">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script type="application/gzip+base64" id="rdx-data">${packPageData(pageData(report.cases, report.residue, (id) => clauseTitle(id, spec), (id) => anchor('case', id)))}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

function header(report: Report, failing: CaseResult[]): string {
  const failures = failing.length;
  const s = report.summary;
  // The engine's verdict and counts, in the same sentence as the console's last lines (src/core/verdict.ts).
  const verdict = s.verdict;
  const v = RUN_VERDICT_CLASS[verdict];
  const unjudged = s.unjudgedMust;
  const why = [
    verdictWhy(s),
    ...(s.shouldWarnings && s.failOn !== 'should' ? [`${plural(s.shouldWarnings, 'SHOULD warning')} (not failing the run; --fail-on should would)`] : []),
    ...(report.missingShards?.length ? [`missing shard(s) ${report.missingShards.join(', ')}`] : []),
  ].join(' · ');
  const run = report.run;
  const fact = (dt: string, dd: string): string => `<div><dt>${esc(dt)}</dt><dd>${dd}</dd></div>`;
  const facts = [
    fact('Target', `<code>${esc(run.target.baseUrl)}</code>${run.target.embedded ? ' <span class="muted">(bundled simulator)</span>' : ''}`),
    fact('Date', `${esc(utc(run.startedAt))}`),
    fact('Duration', `${esc((run.durationMs / 1000).toFixed(1))} s${run.concurrency ? ` <span class="muted">(up to ${esc(run.concurrency)} cases side by side)</span>` : ''}`),
    fact('Seed', esc(run.seed)),
    fact('Run tag', `<code>${esc(run.runTag)}</code>`),
    fact('Run id', `<code>${esc(run.id)}</code>`),
    fact('Harness', `rdx-conformance ${esc(report.harness.version)}`),
    fact('Spec hash', `<abbr title="${esc(report.spec.hash)}"><code>${esc(report.spec.hash.slice(0, 12))}</code></abbr> <span class="muted">${esc(report.spec.clauses)} clauses, ${esc(report.spec.interpretations)} open points</span>`),
    fact('Cases', esc(s.total)),
  ];
  const filtersUsed = Object.entries((run.options['filters'] ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0));
  if (filtersUsed.length) facts.push(fact('Filters', `<code>${esc(filtersUsed.map(([k, value]) => `${k}=${show(value)}`).join(' '))}</code>`));
  const notes: string[] = [];
  if (report.mergedFrom?.length) {
    notes.push(`Merged from ${report.mergedFrom.length} reports: ${report.mergedFrom.map((m) => `<code>${esc(m.runId)}</code>${m.shard ? ` (shard ${esc(m.shard)})` : ''}, ${esc(m.cases)} cases, run tag <code>${esc(m.runTag)}</code>, seed ${esc(m.seed)}`).join('; ')}.`);
  }
  if (report.spec.hash !== specHash()) {
    notes.push(`This report was judged against spec <code>${esc(report.spec.hash.slice(0, 12))}</code>, but the clause texts shown come from the spec installed with this harness (<code>${esc(specHash().slice(0, 12))}</code>). Render it with the harness version that ran it to see the exact words.`);
  }
  return `<header>
<h1>RDX conformance report</h1>
<div class="verdict v-${v}"><div class="verdict-word">${esc(VERDICT_WORDS[verdict])}</div><div class="verdict-why">${esc(why)}</div></div>
${failures ? blockers(failing) : ''}
<dl class="facts">${facts.join('')}</dl>
${notes.map((n) => `<p class="warning">${n}</p>`).join('\n')}
<nav class="toc"><a href="#failures">Failures (${esc(failures)})</a><a href="#not-judged">Not judged (${esc(unjudged)})</a><a href="#matrix">Endpoints × clause families</a><a href="#profile">Implementation profile</a><a href="#counts">Counts</a><a href="#cases">All cases (${esc(s.total)})</a><a href="#residue">Residue (${esc(report.residue.length)})</a><a href="#known">Known failures (${esc(s.byVerdict['known-failure'] ?? 0)})</a></nav>
</header>`;
}

/** The MUST cases not judged (summary.unjudgedMust), grouped by what would let them run (summary.toComplete). */
function notJudged(report: Report): string {
  const { unjudgedMust: count, toComplete } = report.summary;
  const inReport = new Set(report.cases.map((c) => c.id));
  // A case left out by filters or a missing shard has no section on this page to link to.
  const link = (id: string): string => (inReport.has(id) ? `<a href="#${esc(anchor('case', id))}"><code>${esc(id)}</code></a>` : `<code>${esc(id)}</code>`);
  return `<section id="not-judged"><h2>Not judged: to complete this certification <span class="count">(${esc(count)} MUST ${count === 1 ? 'case' : 'cases'})</span></h2>
${count ? `<p class="lead">A MUST case that did not run leaves its clauses unproven, so the run cannot be CONFORMANT until it runs. What would let each group run:</p>
<ul class="unlock">${toComplete.map((g) => `<li><code>${esc(g.unlock)}</code> ${esc(g.how)} <span class="muted">(${plural(g.cases.length, 'case')}:</span> ${g.cases.map(link).join(', ')}<span class="muted">)</span></li>`).join('\n')}</ul>`
    : '<p class="lead">Every MUST case was judged.</p>'}
</section>`;
}

function countsTable(report: Report): string {
  const byLevel = report.summary.byLevel;
  const levels = [...LEVELS.filter((l) => byLevel[l]), ...Object.keys(byLevel).filter((l) => !LEVELS.includes(l))];
  const cell = (n: number | undefined): string => (n ? `<td>${esc(n)}</td>` : '<td class="zero">0</td>');
  const rows = levels.map((l) => {
    const counts = byLevel[l] ?? {};
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return `<tr><td><span class="level">${esc(l)}</span></td>${CASE_VERDICTS.map((v) => cell(counts[v])).join('')}<td>${esc(total)}</td></tr>`;
  });
  const totals = CASE_VERDICTS.map((v) => cell(report.summary.byVerdict[v]));
  return `<table class="counts"><thead><tr><th>Level</th>${CASE_VERDICTS.map((v) => `<th>${badge(v)}</th>`).join('')}<th>Total</th></tr></thead>
<tbody>${rows.join('')}</tbody><tfoot><tr><td>All</td>${totals.join('')}<td>${esc(report.summary.total)}</td></tr></tfoot></table>`;
}

function matrix(report: Report, spec: SpecIndex, cellsByCase: Map<string, Map<string, string>>): string {
  // Reports written before the harness timed answers have no latency: their columns say so with a dash.
  const latency = (report as { latency?: Latency }).latency ?? {};
  const throttling = transportSummary((report as { transport?: TransportStats }).transport);
  const families = [...spec.families];
  const extra = new Set<string>();
  for (const cells of cellsByCase.values()) for (const key of cells.keys()) extra.add(key.slice(key.indexOf(':') + 1));
  for (const f of extra) if (!families.includes(f) && f !== OPEN) families.push(f);
  families.push(OPEN);
  const cell = new Map<string, string[]>();
  for (const cells of cellsByCase.values()) {
    for (const [key, verdict] of cells) cell.set(key, [...(cell.get(key) ?? []), verdict]);
  }
  const familyTitle = (f: string): string => (f === OPEN ? 'Open points of the spec (OBSERVE cases)'
    : `${f}: ${[...spec.clause.values()].filter((c) => c.family === f).map((c) => c.id).join(', ')}`);
  const rows = operations().map((op) => {
    const tds = families.map((f) => {
      const verdicts = cell.get(`${op.endpoint}:${f}`);
      if (!verdicts) return '<td class="cell empty"><span title="no case">·</span></td>';
      const v = worst(verdicts);
      const counts = CASE_VERDICTS.map((x) => [x, verdicts.filter((y) => y === x).length] as const).filter(([, n]) => n);
      const tally = counts.map(([x, n]) => `${n} ${LABEL[x]}`).join(', ');
      const label = `${op.method} ${op.path} × ${f === OPEN ? 'open points' : f}`;
      // Worst first, so the count that gave the cell its colour is the first thing read: "1 fail · 15 ✓".
      const text = counts.map(([x, n]) => `${n} ${CELL_WORD[x]}`).join(' · ');
      return `<td class="cell v-${v}"><a href="#cell=${op.endpoint}:${esc(f)}" data-cell="${op.endpoint}:${esc(f)}" data-label="${esc(label)}" title="${esc(`${label}: ${tally}`)}">${esc(text)}</a></td>`;
    });
    const time = latency[String(op.endpoint)];
    const timing = time
      ? `<td class="lat" title="${esc(`${time.count} answers timed`)}">${esc(time.p50Ms)}</td><td class="lat">${esc(time.p95Ms)}</td><td class="lat">${esc(time.maxMs)}</td>`
      : '<td class="lat empty" colspan="3">–</td>';
    return `<tr><th class="n">${op.endpoint}</th><th class="op"><code><span class="method">${esc(op.method)}</span>${esc(op.path)}</code></th>${tds.join('')}${timing}</tr>`;
  });
  return `<section id="matrix"><h2>Endpoints × clause families</h2>
<p class="lead">Each cell counts the cases that judge a clause of that family on that endpoint, by verdict (<b>15 ✓ · 1 skip</b>: fifteen passed, one was not judged), and takes the colour of the worst of them. A case that broke a clause of another family than its own counts in that family. Select a cell to see its cases. The last columns are the target's answer times on that endpoint during this run.</p>
<div class="matrix-wrap"><table class="matrix"><thead><tr><th class="n">#</th><th>Operation</th>${families.map((f) => `<th title="${esc(familyTitle(f))}">${esc(f === OPEN ? 'open points' : f)}</th>`).join('')}<th class="lat" title="median answer time, ms">p50 ms</th><th class="lat" title="95th percentile, ms">p95 ms</th><th class="lat" title="slowest answer, ms">max ms</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>
<div class="legend"><span><b>Legend</b></span>${CASE_VERDICTS.map((v) => `<span>${badge(v)}${v === 'pass' ? ' (✓ in a cell)' : ''} ${esc(MEANING[v])}</span>`).join('')}<span><span class="badge v-empty">·</span> no case</span></div>
<p class="muted latency-note">Answer times (p50, p95 and max of the implementation's answers to this run's requests, per endpoint; requests that got no answer are not timed): a conformance run sends a few hundred requests one at a time, so this is not a load test. It shows a slow endpoint beside its verdicts; <code>rdx diff</code> compares it between runs.</p>${throttling ? `
<p class="muted transport-note">${esc(throttling)}.</p>` : ''}
</section>`;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function profile(report: Report): string {
  const caseLink = (id: string): string => `<a href="#${esc(anchor('case', id))}">${esc(id)}</a>`;
  let mismatches = 0;
  const row = (p: InterpretationProfile): { html: string; observed: boolean } => {
    const declaredFor = (key: string | undefined): unknown => {
      if (p.declared === undefined || key === undefined) return p.declared;
      return typeof p.declared === 'object' && p.declared !== null && !Array.isArray(p.declared) ? (p.declared as Record<string, unknown>)[key] : undefined;
    };
    // One line per distinct (key, value), with the cases that saw it: twenty refusals seen as 401 are one fact.
    const seen = new Map<string, { key: string | undefined; value: unknown; cases: string[] }>();
    for (const o of p.observed) {
      const id = JSON.stringify([o.key ?? null, show(o.value)]);
      const entry = seen.get(id) ?? { key: o.key, value: o.value, cases: [] };
      entry.cases.push(o.caseId);
      seen.set(id, entry);
    }
    const lines = [...seen.values()];
    const differs = (l: (typeof lines)[number]): boolean => {
      const d = declaredFor(l.key);
      return d !== undefined && show(d) !== show(l.value);
    };
    const keys = lines.map((l) => l.key ?? '');
    const varies = keys.some((k, i) => keys.indexOf(k) !== i);
    const mismatch = lines.some(differs);
    if (mismatch) mismatches++;
    const status = mismatch ? 'differs from declared' : varies ? 'varies between cases'
      : lines.length === 0 ? 'not observed' : p.declared === undefined ? 'observed' : 'matches declared';
    const observed = lines.length
      ? `<ul>${lines.map((l) => `<li><code>${esc(l.key ? `${l.key} = ` : '')}${targetText(show(l.value))}</code>${differs(l) ? ' <b>≠ declared</b>' : ''} <span class="muted">in</span> ${l.cases.length <= 2 ? l.cases.map(caseLink).join(', ')
        : `<details class="inline"><summary>${l.cases.length} cases</summary>${l.cases.map(caseLink).join(', ')}</details>`}</li>`).join('')}</ul>`
      : '<span class="muted">—</span>';
    const declared = p.declared !== undefined ? `<code>${esc(show(p.declared))}</code>` : p.key ? '<span class="muted">not declared</span>' : '<span class="muted">no profile key</span>';
    const html = `<tr class="${mismatch ? 'mismatch' : varies ? 'varies' : ''}"><td><code>${esc(p.id)}</code><div class="q">${esc(p.question)}</div></td><td>${p.key ? `<code class="key">declared.${esc(p.key)}</code> ` : ''}${declared}</td><td>${observed}</td><td class="status">${esc(status)}</td></tr>`;
    return { html, observed: lines.length > 0 || p.declared !== undefined };
  };
  const rows = report.implementationProfile.map(row);
  const shownRows = rows.filter((r) => r.observed);
  const quiet = rows.filter((r) => !r.observed);
  const head = '<thead><tr><th>Open point</th><th>Declared</th><th>Observed</th><th>Status</th></tr></thead>';
  return `<section id="profile"><h2>Implementation profile <span class="count">(${esc(shownRows.length)} of ${esc(rows.length)} open points observed or declared${mismatches ? `, ${mismatches} differ from the declaration` : ''})</span></h2>
<p class="lead">Where the spec is silent the harness records what the implementation does, beside what the vendor declared in its profile (<code>declared:</code> in rdx.config.yaml). A difference is a SHOULD failure of PROFILE.DECLARED_MATCHES, never a failure of the spec.</p>
${shownRows.length ? `<table class="profile">${head}<tbody>\n${shownRows.map((r) => r.html).join('\n')}\n</tbody></table>` : ''}
${quiet.length ? `<details class="more"><summary>${plural(quiet.length, 'open point')} neither observed by this run nor declared</summary><table class="profile">${head}<tbody>\n${quiet.map((r) => r.html).join('\n')}\n</tbody></table></details>` : ''}
</section>`;
}

function filters(report: Report): string {
  const counts = (v: string): number => report.cases.filter((c) => shown(c) === v).length;
  const verdicts = CASE_VERDICTS.filter((v) => counts(v) > 0);
  const levels = LEVELS.filter((l) => report.cases.some((c) => c.level === l));
  const tags = [...new Set(report.cases.flatMap((c) => c.tags))].sort();
  const endpoints = new Set(report.cases.flatMap((c) => c.endpoints));
  return `<form id="filters" hidden aria-label="Filters">
<fieldset><legend>Verdict</legend>${verdicts.map((v) => `<label class="chip"><input type="checkbox" name="verdict" value="${esc(v)}" checked>${badge(v)}<span class="n">${counts(v)}</span></label>`).join('')}</fieldset>
<fieldset><legend>Level</legend>${levels.map((l) => `<label class="chip"><input type="checkbox" name="level" value="${esc(l)}" checked>${esc(l)}</label>`).join('')}</fieldset>
<fieldset><legend>Tag</legend><select id="f-tag" aria-label="Tag"><option value="">any</option>${tags.map((t) => `<option>${esc(t)}</option>`).join('')}</select></fieldset>
<fieldset><legend>Endpoint</legend><select id="f-endpoint" aria-label="Endpoint"><option value="">any</option>${operations().filter((o) => endpoints.has(o.endpoint)).map((o) => `<option value="${o.endpoint}">${o.endpoint} ${esc(o.method)} ${esc(o.path)}</option>`).join('')}</select></fieldset>
<fieldset><input type="search" id="f-search" placeholder="id, title or clause" aria-label="Search"></fieldset>
<fieldset><button type="button" id="f-problems">Problems only</button><button type="button" id="f-reset">Show all</button></fieldset>
<span id="cell-filter" hidden>Cell: <span id="cell-text"></span> <button type="button" id="cell-clear" aria-label="Clear the cell filter">×</button></span>
<span id="shown"></span>
</form>`;
}

function allCases(report: Report, spec: SpecIndex, cellsByCase: Map<string, Map<string, string>>, failureIds: Set<string>): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const c of report.cases) {
    const file = c.file.replace(/:\d+$/, '');
    byFile.set(file, [...(byFile.get(file) ?? []), c]);
  }
  const groups = [...byFile].map(([file, list]) => `<div class="group"><h3><code>${esc(file)}</code> <span class="muted">${plural(list.length, 'case')}</span></h3>
${list.map((c) => caseRow(c, spec, cellsByCase, failureIds)).join('\n')}</div>`);
  return `<section id="cases"><h2>All cases <span class="count">(${esc(report.cases.length)})</span></h2>
<p class="lead">In the order they ran, by suite file. Open a case for its assertions, observations and exchanges.</p>
${groups.join('\n')}
</section>`;
}

function caseRow(c: CaseResult, spec: SpecIndex, cellsByCase: Map<string, Map<string, string>>, failureIds: Set<string>): string {
  const v = shown(c);
  const parts: string[] = [];
  parts.push(`<div class="meta">${esc(c.file)} · ${esc(c.tier)} · clauses ${esc(c.clauses.join(', '))}${c.tags.length ? ` · tags ${esc(c.tags.join(', '))}` : ''}</div>`);
  if (failureIds.has(c.id)) parts.push(`<p><a href="#${esc(anchor('failure', c.id))}">The finding, with the exchange and a curl line, is under Failures.</a></p>`);
  if (c.baseline) parts.push(`<p class="reason">Known failure (baseline): ${esc(c.baseline.reason)}${c.baseline.expires ? ` · until ${esc(c.baseline.expires)}` : ''}</p>`);
  if (c.reason) parts.push(`<p class="reason">${targetText(c.reason)}</p>`);
  if (c.explore) parts.push(exploreFigures(c.explore));
  if (c.observations.length) {
    parts.push(`<table class="assertions observations"><thead><tr><th>Observed</th><th>Value</th></tr></thead><tbody>${c.observations.map((o) =>
      `<tr><td><code>${esc(o.interpretation)}${o.key ? `.${esc(o.key)}` : ''}</code></td><td><code>${targetText(show(o.value))}</code></td></tr>`).join('')}</tbody></table>`);
  }
  if (c.assertions.length) parts.push(assertionSlot(c, 'all'));
  if (c.exchanges.length) {
    parts.push(`<details class="more"><summary>${plural(c.exchanges.length, 'exchange')}</summary>${c.exchanges.map((_, i) => exchangeSlot(c, i)).join('')}</details>`);
  }
  return `<details class="case row" id="${esc(anchor('case', c.id))}" ${dataAttributes(c, cellsByCase.get(c.id))}>
<summary>${badge(v)}<span class="level">${esc(c.level)}</span><span class="id">${esc(c.id)}</span><span class="title">${esc(c.title)}</span><span class="eps" title="${esc(endpointsText(c))}">${c.endpoints.length ? `endpoint ${esc(c.endpoints.join(', '))}` : ''}</span><span class="ms">${esc(c.durationMs)} ms</span></summary>
<div class="body">${parts.join('\n')}</div>
</details>`;
}

/** A ledger this long is in the markup; a longer one (a full run leaves over a thousand records) is drawn when opened. */
const RESIDUE_INLINE = 50;

function residue(report: Report): string {
  const list = report.residue;
  return `<section id="residue"><h2>Residue <span class="count">(${esc(list.length)})</span></h2>
${list.length ? `<p class="lead">Records this run created and left on the target: ${esc((report.residueSummary ?? residueSummary(list)).why)} The run deleted the others it created, where the spec has a DELETE. Every reference starts with the run tag <code>${esc(report.run.runTag)}</code>${report.mergedFrom ? ' (or another shard\'s tag)' : ''}, so staging owners can find and purge them.</p>
<details class="more"${list.length <= RESIDUE_INLINE ? ' open' : ''}><summary>${plural(list.length, 'record')}: ${esc(byResource(list))}</summary>
${list.length <= RESIDUE_INLINE ? `<table class="ledger"><thead><tr><th>Resource</th><th>Operation</th><th>Reference</th><th>Id</th><th>Created by</th><th>Created at</th></tr></thead><tbody>
${list.map((e) => `<tr><td>${esc(e.resource)}</td><td><code>${esc(e.operationId)}</code></td><td><code>${targetText(e.reference ?? '')}</code></td><td>${targetText(e.id ?? '')}</td><td><a href="#${esc(anchor('case', e.caseId))}">${esc(e.caseId)}</a></td><td>${esc(utc(e.createdAt))}</td></tr>`).join('\n')}
</tbody></table>` : `<div class="slot" data-slot="residue"><p class="muted">${plural(list.length, 'record')}; report.json lists them too.</p></div>`}</details>` : '<p class="lead">The run left no record behind.</p>'}
</section>`;
}

function byResource(list: Report['residue']): string {
  const counts = new Map<string, number>();
  for (const e of list) counts.set(e.resource, (counts.get(e.resource) ?? 0) + 1);
  return [...counts].map(([resource, n]) => `${n} ${resource}`).join(', ');
}

function knownFailures(report: Report, known: CaseResult[]): string {
  const b = report.baseline;
  const info = b ? `<p class="lead">Baseline <code>${esc(b.file)}</code>: ${plural(b.entries, 'entry', 'entries')}.
${b.unexpectedPasses.length ? ` Now passing, remove from the baseline: ${b.unexpectedPasses.map((id) => `<a href="#${esc(anchor('case', id))}"><code>${esc(id)}</code></a>`).join(', ')}.` : ''}
${b.expired.length ? ` Expired, counted again: ${b.expired.map((id) => `<a href="#${esc(anchor('case', id))}"><code>${esc(id)}</code></a>`).join(', ')}.` : ''}</p>` : '<p class="lead">No baseline was given: every failure counts.</p>';
  const table = known.length ? `<table class="ledger"><thead><tr><th>Case</th><th>Verdict</th><th>Reason</th><th>Expires</th><th>Broken clauses</th></tr></thead><tbody>
${known.map((c) => `<tr><td><a href="#${esc(anchor('case', c.id))}"><code>${esc(c.id)}</code></a></td><td>${badge(c.verdict)}</td><td>${esc(c.baseline?.reason ?? '')}</td><td>${esc(c.baseline?.expires ?? '')}</td><td>${esc([...new Set(c.assertions.filter((a) => !a.passed).map((a) => a.clause))].join(', '))}</td></tr>`).join('\n')}
</tbody></table>` : '';
  return `<section id="known"><h2>Known failures <span class="count">(${esc(known.length)})</span></h2>${info}${table}</section>`;
}

function footer(report: Report): string {
  return `<footer>rdx-conformance ${esc(report.harness.version)} · report format ${esc(report.format)} · run <code>${esc(report.run.id)}</code> · spec <code>${esc(report.spec.hash)}</code>. This page is self-contained and loads nothing; secrets were replaced by <code>***</code> when the run recorded them, and curl lines name environment variables instead.</footer>`;
}
