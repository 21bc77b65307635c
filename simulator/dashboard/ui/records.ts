// The Records tab: one resource at a time, searched and paged, with the links between them (a job offer's reference
// leads to what links to it, and back). The columns come from spec/schemas (x-rdx-columns), handed in at build time.
import type { JobOfferLinks, RecordLinks } from '../../admin/wire.js';
import { api, problem, type Item } from './api.js';
import { $, button, clear, fmt, h, input, plural } from './dom.js';
import { loaders, page, showTab } from './page.js';

/** Per resource: the record fields a listing shows (spec/schemas x-rdx-columns) and what each field is. */
interface Column { name: string; kind: 'text' | 'number' | 'reference' }
declare const RDX_COLUMNS: Record<string, Column[]>;
interface Resource { id: string; label: string; count: string | null; ref: string | null; cols: [string, string, string][]; links?: boolean }
/** Table rows carry what they show, for the detail pane. */
interface RowElement extends HTMLElement { rdx?: Item; rdxLinks?: RecordLinks }

/** How a field is headed and shown; a field not named here gets its name in words. */
const LABELS: Record<string, [string, string]> = {
  reference: ['Reference', 'ref'], title: ['Title', ''], publication_at: ['Published', ''], subsidiary: ['Subsidiary', ''],
  job_offer_reference: ['Job offer', 'ref'], name: ['Name', 'mono'], value: ['Value', ''], id: ['Id', 'num'],
  recorded_at: ['Recorded', ''], step: ['Step', ''], candidate_ats_id: ['Candidate', 'mono'], application_ats_id: ['Application', 'mono'],
  status: ['Status', ''], count: ['Count', 'num'], mail: ['Mail', 'mono'], first_name: ['First name', ''], last_name: ['Last name', '']
};
/** The columns of a resource's table (keyed by its schema file); `wide` names the one that takes the room left. */
function columnsOf(schema: string, wide: string, first?: Column): [string, string, string][] {
  return (first ? [first] : [] as Column[]).concat(RDX_COLUMNS[schema] || []).map(function (f): [string, string, string] {
    const known = LABELS[f.name];
    const label = known ? known[0] : f.name.charAt(0).toUpperCase() + f.name.slice(1).replace(/_/g, ' ');
    let cls = known ? known[1] : f.kind === 'number' ? 'num' : f.kind === 'reference' ? 'ref' : '';
    if (f.name === wide) cls = cls && cls !== 'wide' ? 'wide ' + cls : 'wide';
    return [f.name, label, cls];
  });
}
const RESOURCES: Resource[] = [
  { id: 'job-offers', label: 'ATS job offers', count: 'jobOffers', ref: 'reference', cols: columnsOf('job-offer', 'title'), links: true },
  { id: 'attributes', label: 'Attributes', count: null, ref: 'job_offer_reference', cols: columnsOf('job-offer-attribute', 'value', { name: 'job_offer_reference', kind: 'reference' }) },
  { id: 'application-steps', label: 'Application steps', count: 'applicationSteps', ref: 'job_offer_reference', cols: columnsOf('application-step', 'application_ats_id') },
  { id: 'jobboard-activities', label: 'Jobboard activities', count: 'jobboardActivities', ref: 'job_offer_reference', cols: columnsOf('jobboard-activity', 'subsidiary') },
  { id: 'jobboard-job-offers', label: 'Jobboard job offers', count: 'jobboardJobOffers', ref: 'reference', cols: columnsOf('jobboard-job-offer', 'title') },
  { id: 'users', label: 'Users', count: 'users', ref: null, cols: columnsOf('user', 'subsidiary') }
];

const state = { resource: 'job-offers', q: '', ref: '', page: 1, size: 25, selected: null as Item | null, seq: 0 };

/** The counts of what links to a job offer (job-offers listings); undefined for a reference's existence. */
function countsOf(links: RecordLinks[string] | undefined): JobOfferLinks | undefined {
  return links && !('jobOffer' in links) ? links : undefined;
}
/** Whether the job offer a reference names exists (listings other than job-offers). */
function jobOfferExists(links: RecordLinks[string] | undefined): boolean {
  return !!(links && 'jobOffer' in links && links.jobOffer);
}

function resourceOf(id: string): Resource { return RESOURCES.filter(function (r) { return r.id === id; })[0] || (RESOURCES[0] as Resource); }
export function renderResourceButtons(): void {
  const seg = clear($('r-seg'));
  RESOURCES.forEach(function (r) {
    const n = r.count && page.state ? page.state.counts[r.count] ?? null : null;
    seg.appendChild(h('button', { type: 'button', 'data-resource': r.id, 'aria-pressed': String(r.id === state.resource), onclick: function () { go(r.id, ''); } },
      [r.label, n === null ? null : h('span', { class: 'n', text: fmt(n) })]));
  });
}
function go(resource: string, ref: string): void {
  state.resource = resource;
  state.ref = ref;
  state.page = 1;
  state.q = '';
  state.selected = null;
  input('r-search').value = '';
  if (page.tab !== 'records') showTab('records'); else loadRecords();
  renderResourceButtons();
}
let searchTimer: number | undefined;
input('r-search').addEventListener('input', function (this: HTMLInputElement) {
  const v = this.value;
  clearTimeout(searchTimer);
  searchTimer = window.setTimeout(function () { state.q = v; state.page = 1; loadRecords(); }, 250);
});
$('r-prev').addEventListener('click', function () { if (state.page > 1) { state.page -= 1; loadRecords(); } });
$('r-next').addEventListener('click', function () { state.page += 1; loadRecords(); });
$('r-close').addEventListener('click', function () { state.selected = null; $('r-detail').hidden = true; $('r-split').className = 'split'; markRecord(); });

function refLink(ref: string, exists: boolean): HTMLElement {
  if (!exists) return h('span', { class: 'mono', title: 'No ATS job offer has this reference', text: ref });
  return h('button', { type: 'button', class: 'btn link mono', title: 'Show this job offer', text: ref, onclick: function (e: Event) { e.stopPropagation(); go('job-offers', ref); } });
}
const LINKS: [string, keyof JobOfferLinks, string][] = [['attributes', 'attributes', 'Attributes'], ['application-steps', 'applicationSteps', 'Steps'], ['jobboard-activities', 'jobboardActivities', 'Activities'], ['jobboard-job-offers', 'jobboardJobOffers', 'Jobboard']];
function linkCell(ref: string, resource: string, n: number | undefined): HTMLElement {
  if (!n) return h('td', { class: 'num' }, [h('span', { class: 'zero', text: '0' })]);
  return h('td', { class: 'num' }, [h('button', { type: 'button', class: 'btn link', 'data-link': resource, title: 'Show them', text: fmt(n), onclick: function (e: Event) { e.stopPropagation(); go(resource, ref); } })]);
}
function loadRecords(): void {
  const r = state;
  const res = resourceOf(r.resource);
  const seq = ++r.seq;
  const qs = 'page=' + r.page + '&size=' + r.size + (r.q ? '&q=' + encodeURIComponent(r.q) : '') + (r.ref ? '&ref=' + encodeURIComponent(r.ref) : '');
  const chip = clear($('r-ref'));
  if (r.ref) {
    chip.hidden = false;
    chip.appendChild(h('span', { class: 'filter' }, ['job offer ' + r.ref, h('button', { type: 'button', class: 'x', title: 'Show all', 'aria-label': 'Show all', text: '×', onclick: function () { go(r.resource, ''); } })]));
  } else chip.hidden = true;
  api<Item>('GET', 'records/' + res.id + '?' + qs).then(function (resp) {
    if (seq !== r.seq) return;
    const head = clear($('r-head'));
    const body = clear($('r-body'));
    if (!resp.ok) { $('r-info').textContent = problem(resp); return; }
    const meta = resp.body.meta;
    r.page = meta.page;
    const cols = res.cols.slice();
    const tr = h('tr');
    cols.forEach(function (c) { tr.appendChild(h('th', { text: c[1] })); });
    if (res.links) LINKS.forEach(function (l) { tr.appendChild(h('th', { class: 'num', text: l[2] })); });
    head.appendChild(tr);
    resp.body.data.forEach(function (item, i) {
      const row: RowElement = h('tr', { 'data-index': i });
      cols.forEach(function (c) {
        const v = item[c[0]];
        const cls = c[2];
        if (cls === 'ref' && typeof v === 'string') {
          const linked = meta.links[v];
          const exists = res.id === 'job-offers' ? false : jobOfferExists(linked);
          row.appendChild(h('td', { class: 'mono' }, [res.id === 'job-offers' ? h('span', { class: 'mono', text: v }) : refLink(v, exists)]));
        } else {
          const text = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
          row.appendChild(h('td', { class: cls, title: text.length > 40 ? text : null, text: text }));
        }
      });
      const reference = String(item['reference']);
      if (res.links) LINKS.forEach(function (l) { row.appendChild(linkCell(reference, l[0], countsOf(meta.links[reference])?.[l[1]])); });
      row.rdx = item;
      row.rdxLinks = meta.links;
      body.appendChild(row);
    });
    $('r-empty').hidden = resp.body.data.length > 0;
    $('r-info').textContent = plural(meta.total, 'record') + (meta.partial ? ' (search stopped early: narrow it)' : '');
    $('r-page').textContent = 'Page ' + fmt(meta.page) + ' of ' + fmt(meta.pages);
    button('r-prev').disabled = meta.page <= 1;
    button('r-next').disabled = meta.page >= meta.pages;
    markRecord();
  });
}
function markRecord(): void {
  Array.prototype.forEach.call($('r-body').children, function (tr) { tr.classList.toggle('sel', state.selected !== null && tr.rdx === state.selected); });
}
$('r-body').addEventListener('click', function (e) {
  const tr = (e.target as Element).closest('tr') as RowElement | null;
  if (!tr || !tr.rdx) return;
  const rec = tr.rdx;
  state.selected = rec;
  markRecord();
  const res = resourceOf(state.resource);
  $('r-split').className = 'split open';
  $('r-detail').hidden = false;
  const title = res.ref && rec[res.ref] ? res.label + ' · ' + String(rec[res.ref]) : res.label + (rec['id'] !== undefined ? ' · ' + String(rec['id']) : rec['mail'] ? ' · ' + String(rec['mail']) : '');
  $('r-dtitle').textContent = title;
  const b = clear($('r-dbody'));
  const ref = res.ref && typeof rec[res.ref] === 'string' ? rec[res.ref] as string : null;
  const links = ref ? (tr.rdxLinks || {})[ref] : undefined;
  if (ref && links) {
    const shown = ref;
    const linkCounts = countsOf(links);
    const related = h('div', { class: 'related' });
    if (res.id === 'job-offers') {
      LINKS.forEach(function (l) {
        const n = linkCounts ? linkCounts[l[1]] : 0;
        if (n) related.appendChild(h('button', { type: 'button', class: 'btn', text: l[2] + ' (' + fmt(n) + ')', onclick: function () { go(l[0], shown); } }));
      });
      if (!related.firstChild) related.appendChild(h('span', { class: 'muted small', text: 'Nothing links to this job offer.' }));
    } else if (jobOfferExists(links)) {
      related.appendChild(h('button', { type: 'button', class: 'btn', text: 'Job offer ' + ref, onclick: function () { go('job-offers', shown); } }));
    } else related.appendChild(h('span', { class: 'muted small', text: 'No ATS job offer has the reference ' + ref + '.' }));
    b.appendChild(h('h3', { text: 'Linked' }));
    b.appendChild(related);
  }
  b.appendChild(h('h3', { text: 'Record' }));
  b.appendChild(h('pre', { text: JSON.stringify(rec, null, 2) }));
});

loaders['records'] = loadRecords;
