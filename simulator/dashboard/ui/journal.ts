// The live journal: the simulator's requests as they arrive (events.ts feeds them), filtered, paused, and one opened
// in the detail pane with its headers and bodies (secrets masked by the simulator).
import type { JournalEntry, JournalSummary } from '../../admin/wire.js';
import { api, problem } from './api.js';
import { $, clear, clock, fmt, h, input, plural, pretty } from './dom.js';
import { page } from './page.js';

const MAX_ROWS = 300;
/** Table rows carry what they show, for the detail pane. */
interface JournalRowElement extends HTMLElement { rdx?: JournalSummary }

const state = { paused: false, held: [] as JournalSummary[], filter: '', selected: null as number | null };

function statusClass(s: number): string { return s === 0 ? 's0' : 's' + String(s).charAt(0); }
function statusPill(s: number): HTMLElement { return h('span', { class: 'st ' + statusClass(s), text: s === 0 ? 'dropped' : String(s) }); }
function matchesFilter(e: JournalSummary): boolean {
  const f = state.filter;
  if (!f) return true;
  return (e.method + ' ' + e.path + ' ' + e.status + ' ' + (e.clientId || '')).toLowerCase().indexOf(f) >= 0;
}
function journalRow(e: JournalSummary, fresh: boolean): HTMLElement {
  const tr: JournalRowElement = h('tr', { 'data-id': e.id, class: fresh ? 'new' : '' }, [
    h('td', { class: 'mono muted', text: clock(e.at) }),
    h('td', {}, [h('span', { class: 'm ' + e.method, text: e.method })]),
    // What else happened on the request (tokens evicted to make room for the one it was issued) is flagged here.
    h('td', { class: 'wide mono', title: e.note ? e.path + '\n' + e.note : e.path }, e.note ? [h('span', { class: 'note-mark', text: '!' }), ' ' + e.path] : [e.path]),
    h('td', {}, [statusPill(e.status)]),
    h('td', { class: 'num lat', text: (Math.round(e.latencyMs * 10) / 10) + ' ms' }),
    h('td', { class: 'who', text: e.clientId || '—' })
  ]);
  tr.hidden = !matchesFilter(e);
  tr.rdx = e;
  if (state.selected === e.id) tr.className += ' sel';
  return tr;
}
export function journalInfo(): void {
  const n = $('j-body').children.length;
  $('j-empty').hidden = n > 0;
  $('j-table').hidden = n === 0;
  const keep = page.state ? page.state.journalSize : 500;
  $('j-info').textContent = plural(n, 'request') + ' shown · the simulator keeps the latest ' + fmt(keep);
  $('j-pause').textContent = state.paused ? (state.held.length ? 'Resume (' + fmt(state.held.length) + ' new)' : 'Resume') : 'Pause';
}
export function addEntries(list: JournalSummary[], snapshot: boolean): void {
  const body = $('j-body');
  if (snapshot) { clear(body); state.held = []; }
  if (state.paused && !snapshot) {
    state.held = state.held.concat(list).slice(-MAX_ROWS);
    journalInfo();
    return;
  }
  list.forEach(function (e) { body.insertBefore(journalRow(e, !snapshot), body.firstChild); });
  while (body.lastChild && body.children.length > MAX_ROWS) body.removeChild(body.lastChild);
  journalInfo();
}
$('j-pause').addEventListener('click', function () {
  state.paused = !state.paused;
  if (!state.paused && state.held.length) { const held = state.held; state.held = []; addEntries(held, false); }
  journalInfo();
});
$('j-clear').addEventListener('click', function () { clear($('j-body')); closeJournalDetail(); journalInfo(); });
input('j-filter').addEventListener('input', function (this: HTMLInputElement) {
  state.filter = this.value.trim().toLowerCase();
  Array.prototype.forEach.call($('j-body').children, function (tr: JournalRowElement) { tr.hidden = !tr.rdx || !matchesFilter(tr.rdx); });
});
$('j-body').addEventListener('click', function (e) {
  const tr = (e.target as Element).closest('tr') as JournalRowElement | null;
  if (!tr || !tr.rdx) return;
  Array.prototype.forEach.call($('j-body').querySelectorAll('tr.sel'), function (r: Element) { r.classList.remove('sel'); });
  tr.classList.add('sel');
  state.selected = tr.rdx.id;
  showJournalDetail(tr.rdx);
});
export function closeJournalDetail(): void {
  state.selected = null;
  $('j-detail').hidden = true;
  $('j-split').className = 'split';
  Array.prototype.forEach.call($('j-body').querySelectorAll('tr.sel'), function (r: Element) { r.classList.remove('sel'); });
}
$('j-close').addEventListener('click', closeJournalDetail);
function section(title: string, content: HTMLElement): HTMLElement[] {
  return [h('h3', { text: title }), content];
}
function showJournalDetail(sum: JournalSummary): void {
  $('j-split').className = 'split open';
  $('j-detail').hidden = false;
  const t = clear($('j-dtitle'));
  t.appendChild(h('div', {}, [h('span', { class: 'm ' + sum.method, text: sum.method }), ' ' + sum.path]));
  t.appendChild(h('div', { class: 'meta' }, [statusPill(sum.status), h('span', { text: (Math.round(sum.latencyMs * 10) / 10) + ' ms' }), h('span', { text: clock(sum.at) }),
    h('span', { text: 'client ' + (sum.clientId || '—') }), sum.operationId ? h('span', { text: sum.operationId }) : null]));
  const b = clear($('j-dbody'));
  if (sum.note) b.appendChild(h('p', { id: 'j-note', class: 'note', text: sum.note }));
  const loading = b.appendChild(h('p', { class: 'muted small', text: 'Loading…' }));
  api<JournalEntry>('GET', 'journal/' + sum.id).then(function (r) {
    if (state.selected !== sum.id) return;
    loading.remove();
    const e = r.body.data[0];
    if (!r.ok || !e) { b.appendChild(h('p', { class: 'muted', text: problem(r) })); return; }
    const headers = e.requestHeaders;
    const dl = h('dl', { class: 'kv' });
    Object.keys(headers).forEach(function (k) { dl.appendChild(h('dt', { text: k })); dl.appendChild(h('dd', { text: headers[k] })); });
    section('Request headers', dl).forEach(function (n) { b.appendChild(n); });
    section('Request body', e.requestBody === null ? h('p', { class: 'muted small', text: 'none' }) : h('pre', { id: 'j-reqbody', text: pretty(e.requestBody) })).forEach(function (n) { b.appendChild(n); });
    section('Response body', e.responseBody === null ? h('p', { class: 'muted small', text: e.status === 0 ? 'none: the connection was closed without an answer' : 'none' }) : h('pre', { id: 'j-resbody', text: pretty(e.responseBody) })).forEach(function (n) { b.appendChild(n); });
    b.appendChild(h('p', { class: 'muted small', text: 'Client secrets, access tokens and credentials are masked (***).' }));
  });
}

