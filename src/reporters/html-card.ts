// A failure's card in report.html (its clauses, words, findings and evidence) and the slots the page's script fills
// from the embedded data (html-data.ts). A read-back failure shows the cause before the symptom: the write that
// caused it, then the read that showed it, and a curl script replaying every exchange of the case up to that read.
// An explore case shows its search's figures, the whole shrunk sequence as a script and the regression case.
import { causeIndex, READ_BACK_CLAUSES, stepLabel } from '../core/failures.js';
import type { Assertion, CaseResult, ExploreResult } from '../core/results.js';
import { replaceInvisible } from '../core/terminal.js';
import { shownVerdict as shown } from '../core/case-view.js';
import { clauses, interpretations, operations, type Clause, type Interpretation } from '../spec/index.js';
import { anchor, badge, esc, invisibleMark, plural, targetText } from './html-text.js';

export interface SpecIndex {
  clause: Map<string, Clause>;
  interpretation: Map<string, Interpretation>;
  families: string[];
}

export function specIndex(): SpecIndex {
  const list = clauses();
  return {
    clause: new Map(list.map((c) => [c.id, c])),
    interpretation: new Map(interpretations().map((i) => [i.id, i])),
    families: [...new Set(list.map((c) => c.family))],
  };
}


export function dataAttributes(c: CaseResult, cells: Map<string, string> | undefined): string {
  const search = `${c.id} ${c.title} ${c.clauses.join(' ')} ${c.assertions.filter((a) => !a.passed).map((a) => a.clause).join(' ')}`.toLowerCase();
  return `data-id="${esc(c.id)}" data-verdict="${esc(shown(c))}" data-level="${esc(c.level)}" data-tags="${esc(c.tags.join(' '))}" data-endpoints="${esc(c.endpoints.join(' '))}" data-cells="${esc([...(cells?.keys() ?? [])].join(' '))}" data-search="${esc(search)}"`;
}

export function endpointsText(c: CaseResult): string {
  const ops = operations();
  return c.endpoints.map((e) => {
    const op = ops.find((o) => o.endpoint === e);
    return op ? `${e} ${op.method} ${op.path}` : String(e);
  }).join(', ');
}

function clauseText(id: string, spec: SpecIndex): string {
  const c = spec.clause.get(id);
  if (c) {
    const words = c.quote
      ? `<blockquote class="quote">“${esc(c.quote)}”<cite>The spec${c.section ? `, ${esc(c.section)}` : ''}</cite></blockquote>`
      : '';
    const basis = c.basis ? `<p class="basis"><b>Basis:</b> ${esc(c.basis)} <span class="muted">(the spec is silent; an RFC says it)</span></p>` : '';
    return `${words}${basis}`;
  }
  const i = spec.interpretation.get(id);
  if (i) return `<blockquote class="quote">“${esc(i.quote)}”<cite>The spec (an open point: ${esc(i.question)})</cite></blockquote>`;
  return '';
}

export function clauseTitle(id: string, spec: SpecIndex): string {
  return spec.clause.get(id)?.title ?? spec.interpretation.get(id)?.question ?? '';
}

export function failureCard(c: CaseResult, spec: SpecIndex, cellsByCase: Map<string, Map<string, string>>): string {
  const v = shown(c);
  const failed = c.assertions.filter((a) => !a.passed);
  const byExchange = new Map<number | undefined, typeof failed>();
  for (const a of failed) byExchange.set(a.exchange, [...(byExchange.get(a.exchange) ?? []), a]);
  const used = new Set<number>();
  const findings = [...byExchange].map(([index, list]) => {
    const ex = index !== undefined ? c.exchanges[index] : undefined;
    if (index !== undefined) used.add(index);
    // A clause broken twice on one exchange (by two checks) is quoted once, with both findings under it.
    const byClause = new Map<string, typeof list>();
    for (const a of list) byClause.set(a.clause, [...(byClause.get(a.clause) ?? []), a]);
    const items = [...byClause].map(([id, same]) => {
      const level = same.some((a) => a.level === 'MUST') ? 'MUST' : 'SHOULD';
      return `<div class="assertion v-${level === 'MUST' ? 'fail' : 'warn'}">
<div><span class="level">${esc(level)}</span> <code class="clause">${esc(id)}</code> <span class="muted">${esc(clauseTitle(id, spec))}</span></div>
${clauseText(id, spec)}
${same.map((a) => `<p class="got"><b>Expected, and what came back:</b> ${targetText(a.message)} <span class="muted">(check ${esc(a.check)})</span></p>`).join('\n')}
</div>`;
    }).join('\n');
    return `<div class="finding">${items}${ex ? evidence(c, index as number, list, used) : ''}</div>`;
  });
  if (c.verdict === 'error' || (c.verdict !== 'fail' && c.verdict !== 'warn')) {
    // No assertion points at an exchange: show the last one, which is where the case stopped.
    const last = c.exchanges.length - 1;
    if (last >= 0 && !used.has(last)) {
      used.add(last);
      findings.push(`<div class="finding">${exchangeSlot(c, last)}</div>`);
    }
  }
  const passed = c.assertions.filter((a) => a.passed);
  const others = c.exchanges.map((ex, i) => [ex, i] as const).filter(([, i]) => !used.has(i));
  return `<article class="case card v-${esc(v)}" id="${esc(anchor('failure', c.id))}" ${dataAttributes(c, cellsByCase.get(c.id))}>
<header>${badge(v)}<span class="level" title="the level of the case; each finding below has its own">${esc(c.level)}</span><code class="id">${esc(c.id)}</code><span>${esc(c.title)}</span></header>
<div class="body">
<div class="meta">${esc(c.file)} · endpoints ${esc(endpointsText(c))} · clauses ${esc(c.clauses.join(', '))}${c.tags.length ? ` · tags ${esc(c.tags.join(', '))}` : ''} · ${esc(c.durationMs)} ms · <a href="#${esc(anchor('case', c.id))}">in the list of all cases</a></div>
${c.reason ? `<p class="reason">${targetText(c.reason)}</p>` : ''}
${c.explore ? exploreFinding(c, c.explore) : ''}
${findings.join('\n')}
${passed.length ? `<details class="more"><summary>${plural(passed.length, 'other assertion')} held</summary>${assertionSlot(c, 'held')}</details>` : ''}
${others.length ? `<details class="more"><summary>${plural(others.length, 'other exchange')} of this case</summary>${others.map(([, i]) => exchangeSlot(c, i)).join('')}</details>` : ''}
</div>
</article>`;
}

/** Where a case's assertion table goes (all of them, or those that held), drawn from the embedded data when shown. */
export function assertionSlot(c: CaseResult, which: 'all' | 'held'): string {
  const n = which === 'held' ? c.assertions.filter((a) => a.passed).length : c.assertions.length;
  return `<div class="slot" data-slot="assertions" data-which="${which}"><p class="muted">${plural(n, 'assertion')}</p></div>`;
}

/**
 * Where an exchange goes: the page's script draws it from the embedded data (html-data.ts) when the slot is shown,
 * i.e. on load for a failure's evidence and when its <details> is opened for the rest.
 */
export function exchangeSlot(c: CaseResult, index: number): string {
  return `<div class="slot" data-slot="exchange" data-ex="${esc(index)}"><p class="muted">Exchange #${esc(index)}: ${esc(c.exchanges[index]?.step ?? '')}</p></div>`;
}


/**
 * The exchange a finding rests on. For a read-back failure, first the write that caused it (the last request
 * before the read that changes something), then the read, then a script replaying the case up to the read.
 */
function evidence(c: CaseResult, index: number, list: Assertion[], used: Set<number>): string {
  if (!list.some((a) => READ_BACK_CLAUSES.has(a.clause))) return exchangeSlot(c, index);
  const cause = causeIndex(c.exchanges, index);
  // An explore case shows its whole sequence as one script already.
  const script = c.explore ? '' : scriptSlot(c, index);
  if (cause === undefined || cause === index) return `${exchangeSlot(c, index)}${script}`;
  used.add(cause);
  return `<div class="cause"><p class="evidence-head"><b>The write that caused it:</b> ${esc(stepLabel(c.exchanges, cause) ?? '')}</p>${exchangeSlot(c, cause)}</div>
<div class="symptom"><p class="evidence-head"><b>The read that showed it:</b> ${esc(stepLabel(c.exchanges, index) ?? '')}</p>${exchangeSlot(c, index)}</div>${script}`;
}

/** Where the curl script replaying exchanges #0 to #upto goes: built by the page's script from their curl lines. */
export function scriptSlot(c: CaseResult, upto: number): string {
  return `<div class="slot" data-slot="script" data-upto="${esc(upto)}"><p class="muted">A curl script replaying ${plural(upto + 1, 'exchange')} of this case, in order.</p></div>`;
}

/** An explore case's figures: the seed, and how many sequences and requests it spent (shrinking included). */
export function exploreFigures(x: ExploreResult): string {
  const fact = (dt: string, dd: unknown, title: string): string => `<div title="${esc(title)}"><dt>${esc(dt)}</dt><dd>${esc(dd)}</dd></div>`;
  return `<dl class="facts explore-figures">${[
    fact('Seed', x.seed, 'the seed of the search: rdx run with the same --seed draws the same sequences'),
    fact('Sequences', x.sequences, 'sequences run, shrinking included'),
    fact('Requests', x.requests, 'requests sent, shrinking included'),
    ...(x.shrinks !== undefined ? [fact('Shrinks', x.shrinks, 'how often the finding shrank')] : []),
    ...(x.steps !== undefined ? [fact('Steps', x.steps, 'the steps of the shrunk sequence')] : []),
  ].join('')}</dl>`;
}

/**
 * An explore finding: its figures, the whole shrunk sequence as one curl script, and the regression case (YAML) to
 * save under the suites. The YAML is escaped; the copy button copies it exactly, invisible characters included.
 */
function exploreFinding(c: CaseResult, x: ExploreResult): string {
  const regression = x.regression === undefined ? '' : `<div class="curl regression"><span class="label">regression</span><pre tabindex="0" dir="ltr"><code>${replaceInvisible(esc(x.regression), invisibleMark)}</code></pre><button type="button" class="copy" data-copy="${esc(x.regression)}" hidden>Copy</button>
<p class="muted">Save it under your suites (e.g. <code>my-regressions/${esc(c.id)}.yaml</code>) and run <code>rdx run --suite my-regressions/</code> to keep the finding as a regression case.</p></div>`;
  return `<div class="explore"><p class="evidence-head"><b>Exploration</b> (docs/explore.md): the shortest sequence found that fails, shrunk from a search of</p>
${exploreFigures(x)}
${c.exchanges.length ? scriptSlot(c, c.exchanges.length - 1) : ''}
${regression}</div>`;
}
