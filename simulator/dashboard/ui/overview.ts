// The left of the page: the header's chips, the quick start (base URL, client, curl lines), the data (seed, records,
// reset, snapshots), chaos, and the "Run conformance" button, all drawn from the state the simulator reports.
import type { DashboardState, RunView } from '../../admin/wire.js';
import { API, UNREACHABLE, api, apiHeaders, problem, reply } from './api.js';
import { $, button, clear, fmt, h, input, plural, toast } from './dom.js';
import { loaders, page } from './page.js';
import { renderResourceButtons } from './records.js';
import { renderRun } from './run-card.js';

function baseUrl(): string { return page.state ? location.origin + page.state.basePath : location.origin; }
function shq(s: string): string { return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }

/** The store's counts as the page names them. */
const COUNTS: [string, string][] = [['jobOffers', 'ATS job offers'], ['applicationSteps', 'Application steps'], ['jobboardActivities', 'Jobboard activities'], ['jobboardJobOffers', 'Jobboard job offers'], ['users', 'Users']];

function renderState(): void {
  const st = page.state;
  if (!st) return;
  const base = baseUrl();
  $('h-base').textContent = base;
  const chips = clear($('h-chips'));
  chips.appendChild(h('span', { class: 'chip' }, [h('b', { text: 'seed ' + st.seed }), ' · ' + plural(st.records, 'record')]));
  const faults = st.personas.filter(function (p) { return p.kind === 'fault'; });
  const variants = st.personas.filter(function (p) { return p.kind === 'variant'; });
  if (faults.length) chips.appendChild(h('span', { class: 'chip fault', title: 'Fault personas break the spec on purpose' }, ['fault ', h('b', { text: faults.map(function (p) { return p.name; }).join(', ') })]));
  if (variants.length) chips.appendChild(h('span', { class: 'chip variant', title: 'Legal variants read open points another way' }, ['variant ', h('b', { text: variants.map(function (p) { return p.name; }).join(', ') })]));
  if (!st.personas.length) chips.appendChild(h('span', { class: 'chip', title: 'No fault or variant: the simulator follows the spec and its defaults' }, ['personas ', h('b', { text: 'none' })]));
  chips.appendChild(h('span', { class: st.chaos.active ? 'chip chaos' : 'chip' }, ['chaos ', h('b', { text: st.chaos.active ? st.chaos.text : 'off' })]));
  chips.appendChild(h('span', { class: page.live ? 'chip live' : 'chip', id: 'live-chip' }, [h('span', { class: 'dot' }), page.live ? 'live' : 'connecting…']));

  $('q-base').textContent = base;
  $('q-id').textContent = st.clientId;
  $('q-secret').textContent = st.clientSecret === null ? '(set at start)' : st.clientSecret;
  // One member a line inside the single quotes: still one shell word and valid JSON, and readable in a narrow card.
  const members = [['client_id', st.clientId], ['client_secret', st.clientSecret === null ? '<client secret>' : st.clientSecret], ['grant_type', 'client_credentials']];
  const body = members.map(function (m) { return JSON.stringify(m[0]) + ': ' + JSON.stringify(m[1]).replace(/'/g, "'\\''"); });
  $('curl-token').textContent = 'export RDX_ACCESS_TOKEN=$(curl -s -X POST ' + shq(base + '/oauth2/token') + ' \\\n' +
    "  -H 'content-type: application/json' \\\n  -d '{" + body.join(',\n       ') + "}' \\\n" +
    "  | sed 's/.*access_token\": *\"//;s/\".*//')";
  $('curl-list').textContent = 'curl -s ' + shq(base + '/ats/job-offers') + ' \\\n  -H "authorization: Bearer $RDX_ACCESS_TOKEN"';

  if (!$('data-form').contains(document.activeElement)) {
    input('d-seed').value = String(st.seed);
    input('d-records').value = String(st.records);
  }
  const counts = clear($('d-counts'));
  const seeded = st.counts;
  COUNTS.forEach(function (c) {
    counts.appendChild(h('dt', { text: c[1] }));
    counts.appendChild(h('dd', { text: fmt(seeded[c[0]] || 0) }));
  });
  if (!$('chaos-form').contains(document.activeElement)) {
    input('c-latency').value = st.chaos.latency.join('; ');
    input('c-error').value = st.chaos.errorRate ? String(Math.round(st.chaos.errorRate * 10000) / 100) : '';
    input('c-drop').value = st.chaos.dropRate ? String(Math.round(st.chaos.dropRate * 10000) / 100) : '';
    input('c-seed').value = String(st.chaos.seed);
  }
  $('c-now').textContent = '';
  $('c-now').appendChild(document.createTextNode('Now: '));
  $('c-now').appendChild(h('b', { text: st.chaos.active ? st.chaos.text : 'off' }));
  $('p-count').textContent = String(st.personas.length);
  renderRun(st.run);
  renderResourceButtons();
}

export function loadState(): Promise<boolean> {
  return api<DashboardState>('GET', 'state').then(function (r) {
    if (!r.ok) return false;
    page.state = r.body.data[0] || null;
    renderState();
    return true;
  });
}
let stateTimer: number | undefined;
export function refreshSoon(): void {
  clearTimeout(stateTimer);
  stateTimer = window.setTimeout(function () {
    loadState();
    const load = loaders[page.tab];
    if (load) load();
  }, 120);
}

$('run-btn').addEventListener('click', function () {
  button('run-btn').disabled = true;
  api<RunView>('POST', 'runs').then(function (r) {
    if (!r.ok) { toast(problem(r), true); loadState(); return; }
    const run = r.body.data[0] || null;
    if (page.state) page.state.run = run;
    renderRun(run);
  });
});

/* ---------- data and chaos ---------- */
$('data-form').addEventListener('submit', function (e) {
  e.preventDefault();
  const body = { seed: Number(input('d-seed').value), records: Number(input('d-records').value) };
  api('POST', 'reseed', body).then(function (r) { toast(r.ok ? r.body.message : problem(r), !r.ok); if (r.ok) refreshSoon(); });
});
$('d-reset').addEventListener('click', function () {
  api('POST', 'reset').then(function (r) { toast(r.ok ? r.body.message : problem(r), !r.ok); if (r.ok) refreshSoon(); });
});
function percent(id: string): number {
  const v = input(id).value.trim();
  return v === '' ? 0 : Number(v) / 100;
}
$('chaos-form').addEventListener('submit', function (e) {
  e.preventDefault();
  const latency = input('c-latency').value.split(/[;\n]/).map(function (s) { return s.trim(); }).filter(Boolean);
  const body: { latency: string[]; errorRate: number; dropRate: number; seed?: number } = { latency: latency, errorRate: percent('c-error'), dropRate: percent('c-drop') };
  const seed = input('c-seed').value.trim();
  if (seed !== '') body.seed = Number(seed);
  api('PUT', 'chaos', body).then(function (r) { toast(r.ok ? r.body.message : problem(r), !r.ok); if (r.ok) refreshSoon(); });
});
$('c-off').addEventListener('click', function () {
  api('PUT', 'chaos', { latency: [], errorRate: 0, dropRate: 0 }).then(function (r) { toast(r.ok ? 'Chaos off.' : problem(r), !r.ok); if (r.ok) refreshSoon(); });
});

/* ---------- snapshots: the store exported as a download, or replaced by an imported file ---------- */
const SNAPSHOT_FILE = 'rdx-simulator-snapshot.json';
/** The outcome stays on the page (a refusal can be long); the server's words are text, never markup. */
function snapshotSays(text: string, bad: boolean): void {
  const out = $('d-snap');
  out.textContent = text;
  out.className = bad ? 'now snap bad' : 'now snap';
}
function countsText(counts: Record<string, number>): string {
  return COUNTS.map(function (c) { return c[1] + ' ' + fmt(counts[c[0]] || 0); }).join(' · ');
}
function bytes(n: number): string { return n < 1024 * 1024 ? fmt(Math.ceil(n / 1024)) + ' KB' : fmt(Math.round(n / 104857.6) / 10) + ' MB'; }
/** Fetched rather than linked: a link cannot carry the admin token, which must never go into a URL. */
$('d-export').addEventListener('click', function () {
  const btn = button('d-export');
  btn.disabled = true;
  fetch(API + 'snapshot', { headers: apiHeaders(), cache: 'no-store', credentials: 'same-origin' }).then(function (res) {
    if (!res.ok) return reply(res).then(function (r) { snapshotSays(problem(r), true); });
    const named = /filename="([\w.-]+)"/.exec(res.headers.get('content-disposition') || '');
    const name = named && named[1] ? named[1] : SNAPSHOT_FILE;
    return res.blob().then(function (blob) {
      const url = URL.createObjectURL(blob);
      const link = h('a', { href: url, download: name, hidden: true });
      document.body.appendChild(link);
      link.click();
      link.remove();
      window.setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
      snapshotSays('Exported ' + name + ' (' + bytes(blob.size) + ').', false);
    });
  }).catch(function () { snapshotSays(UNREACHABLE, true); }).then(function () { btn.disabled = false; });
});
$('d-import').addEventListener('click', function () { input('d-import-file').click(); });
input('d-import-file').addEventListener('change', function (this: HTMLInputElement) {
  const file = this.files && this.files[0];
  this.value = '';
  if (!file) return;
  button('d-import').disabled = true;
  snapshotSays('Importing ' + file.name + '…', false);
  api<Record<string, number>>('PUT', 'snapshot', file).then(function (r) {
    button('d-import').disabled = false;
    const counts = r.ok ? r.body.data[0] : undefined;
    if (!counts) {
      snapshotSays(problem(r), true);
      toast('The snapshot was refused; nothing changed.', true);
      return;
    }
    snapshotSays((r.body.message || 'Snapshot imported.') + ' ' + countsText(counts) + '.', false);
    toast('Snapshot imported.', false);
    refreshSoon();
  });
});

