// The run card: a conformance run under way, or the verdict and counts of the last one as its report states them
// (simulator/dashboard/runs.ts runCard), with a link to the full report. Shown, never derived.
import { RUN_VERDICT_CLASS } from '../../../src/core/case-view.js';
import type { RunView } from '../../admin/wire.js';
import { api, problem } from './api.js';
import { $, button, clear, fmt, h, plural, toast } from './dom.js';
import { page } from './page.js';

export function renderRun(run: RunView | null | undefined): void {
  const box = $('verdict');
  const btn = button('run-btn');
  clear(box);
  box.className = 'verdict';
  btn.disabled = !!(run && run.state === 'running');
  btn.textContent = run && run.state === 'running' ? 'Running…' : 'Run conformance';
  if (!run) {
    box.appendChild(h('div', { class: 'why muted', text: 'No run yet. The verdict appears here, with a link to the full report.' }));
    return;
  }
  let under = run.personas.length ? 'with ' + run.personas.join(', ') : 'with no persona';
  if (run.chaos) under += ', chaos on';
  if (run.state === 'running') {
    box.className = 'verdict running';
    box.appendChild(h('div', { class: 'word' }, [h('span', { class: 'spinner' }), 'Running run ' + run.n + '…']));
    box.appendChild(h('div', { class: 'why muted', text: 'Every suite against this simulator, ' + under + '. Watch the journal.' }));
    return;
  }
  if (run.state === 'failed') {
    box.className = 'verdict fail';
    box.appendChild(h('div', { class: 'word', text: 'NOT JUDGED' }));
    box.appendChild(h('div', { class: 'why', text: run.error || 'The run failed.' }));
    return;
  }
  const c = run.card;
  if (!c) return;
  const v = c.byVerdict;
  box.className = 'verdict ' + (RUN_VERDICT_CLASS[c.verdict] || 'fail');
  box.setAttribute('data-verdict', c.verdict.toLowerCase().replace(/_/g, '-'));
  box.appendChild(h('div', { class: 'word', id: 'verdict-word', text: c.word }));
  box.appendChild(h('div', { class: 'why', id: 'verdict-line', text: c.why + ', ' + under + '.' }));
  const stats = h('div', { class: 'stats' });
  function stat(n: number, label: string, cls: string): void { stats.appendChild(h('div', { class: 'stat ' + (n ? cls : '') }, [h('b', { text: fmt(n) }), h('span', { text: label })])); }
  stat(v.pass || 0, 'passed', '');
  stat(c.mustFailures, 'MUST failed', 'bad');
  stat(c.shouldWarnings, 'warnings', 'warn');
  stat(c.unjudgedMust, 'MUST not judged', 'warn');
  stat(v.observed || 0, 'observed', '');
  stat(v.skip || 0, 'skipped', '');
  stat(c.errors, 'no answer', 'bad');
  box.appendChild(stats);
  if (c.toComplete.length) {
    const list = h('div', { class: 'clauses' }, [h('div', { class: 'lbl', text: 'To complete this certification' })]);
    c.toComplete.forEach(function (t) {
      list.appendChild(h('div', { class: 'clause' }, [h('code', { text: t.unlock }), h('span', { title: t.how + ': ' + t.cases.join(', '), text: plural(t.cases.length, 'case') })]));
    });
    box.appendChild(list);
  }
  if (c.failedClauses.length) {
    const list = h('div', { class: 'clauses' }, [h('div', { class: 'lbl', text: 'Failed MUST clauses' })]);
    c.failedClauses.forEach(function (f) {
      const caught = run.breaks.indexOf(f.clause) >= 0;
      list.appendChild(h('div', { class: 'clause', 'data-clause': f.clause }, [
        h('code', { text: f.clause }),
        h('span', {}, [caught ? h('span', { class: 'caught', title: 'An active fault persona breaks this clause on purpose', text: '✓ caught · ' }) : null, plural(f.cases, 'case')])
      ]));
    });
    box.appendChild(list);
  }
  box.appendChild(h('div', { class: 'foot' }, [h('span', { class: 'muted', text: 'Run ' + run.n + ' · ' + plural(c.total, 'case') + ' in ' + (Math.round((run.durationMs || 0) / 100) / 10) + ' s' })]));
  if (run.reportPath) {
    if (page.state && page.state.adminTokenRequired) {
      box.appendChild(h('button', { class: 'open', type: 'button', id: 'report-link', text: 'Open the full report →', onclick: function () { openReport(run.n); } }));
    } else {
      box.appendChild(h('a', { class: 'open', id: 'report-link', href: '/__admin/' + run.reportPath, target: '_blank', rel: 'noopener', text: 'Open the full report →' }));
    }
  }
}
function openReport(n: number): void {
  api<{ url: string }>('POST', 'runs/' + n + '/ticket').then(function (r) {
    const ticket = r.body.data[0];
    if (!r.ok || !ticket) { toast(problem(r), true); return; }
    window.open(ticket.url, '_blank', 'noopener');
  });
}
