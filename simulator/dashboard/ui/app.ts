// The dashboard's script, bundled by scripts/bundle.mjs into one inline script whose hash the page's
// Content-Security-Policy pins (page.ts). Every piece of data goes into the page with textContent, never as HTML.
// The resources' columns come from spec/schemas (x-rdx-columns), handed in at build time.

/** Per resource: the record fields a listing shows (spec/schemas x-rdx-columns) and what each field is. */
interface Column { name: string; kind: 'text' | 'number' | 'reference' }
declare const RDX_COLUMNS: Record<string, Column[]>;
// The attributes' listing starts with the job offer they belong to, which the API carries in the path, not the body.

interface Chaos { active: boolean; text: string; latency: string[]; errorRate: number; dropRate: number; seed: number }
/** A finished run's verdict and counts as its report states them (simulator/dashboard/runs.ts RunCard): shown, never derived. */
interface Card {
  verdict: 'CONFORMANT' | 'INCOMPLETE' | 'KNOWN_FAILURES' | 'NOT_CONFORMANT'; word: string; line: string; total: number;
  byVerdict: Record<string, number>; mustFailures: number; errors: number; shouldWarnings: number; knownFailures: number;
  unjudgedMust: number; toComplete: { unlock: string; how: string; cases: string[] }[]; failedClauses: { clause: string; cases: number }[];
}
interface Run {
  n: number; state: 'running' | 'done' | 'failed'; personas: string[]; chaos: boolean; breaks: string[];
  card?: Card; reportPath?: string; error?: string; durationMs?: number;
}
interface ActivePersona { name: string; kind: 'fault' | 'variant' }
interface State {
  seed: number; records: number; basePath: string; clientId: string; clientSecret: string | null; journalSize: number;
  adminTokenRequired: boolean; counts: Record<string, number>; personas: ActivePersona[]; chaos: Chaos; run?: Run;
}
interface PersonaInfo { name: string; kind: 'fault' | 'variant'; description: string; breaks: string[]; interprets: string[]; active: boolean }
interface JournalSummary { id: number; at: string; method: string; path: string; status: number; latencyMs: number; clientId?: string | null; operationId?: string | null; note?: string }
interface JournalEntry extends JournalSummary { requestHeaders: Record<string, string>; requestBody: string | null; responseBody: string | null }
type JobOfferLinks = Record<string, number>;
type Links = Record<string, (JobOfferLinks & { jobOffer?: boolean }) | undefined>;
interface RecordMeta { page: number; pages: number; total: number; partial: boolean; links: Links }
type Item = Record<string, unknown>;
interface Body<T> { message?: string; errors?: { message?: string }[]; data: T[]; meta: RecordMeta }
interface Reply<T> { status: number; ok: boolean; body: Body<T> }
/** Table rows carry what they show, for the detail pane. */
interface RowElement extends HTMLElement { rdx?: Item; rdxLinks?: Links }
interface JournalRowElement extends HTMLElement { rdx?: JournalSummary }
type Attrs = Record<string, unknown>;
type Kid = Node | string | null | undefined | false;
interface Resource { id: string; label: string; count: string | null; ref: string | null; cols: [string, string, string][]; links?: boolean }

const API = '/__admin/api/';
const TOKEN_KEY = 'rdx-admin-token';
const MAX_ROWS = 300;
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

const S = {
  token: '', state: null as State | null, personas: [] as PersonaInfo[], personaFilter: '', tab: 'journal', live: false,
  journal: { paused: false, held: [] as JournalSummary[], filter: '', selected: null as number | null, count: 0 },
  records: { resource: 'job-offers', q: '', ref: '', page: 1, size: 25, selected: null as Item | null, seq: 0 },
  events: { ctrl: null as AbortController | null, failures: 0, stopped: false, timer: undefined as number | undefined }
};
try { S.token = sessionStorage.getItem(TOKEN_KEY) || ''; } catch { S.token = ''; }

/** An element of the page's markup (page.html): a missing one is a bug of the page, not of the data. */
function $(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (!node) throw new Error('the page has no #' + id);
  return node;
}
function input(id: string): HTMLInputElement { return $(id) as HTMLInputElement; }
function button(id: string): HTMLButtonElement { return $(id) as HTMLButtonElement; }
function h(tag: string, attrs?: Attrs, kids?: Kid[]): HTMLElement {
  const node = document.createElement(tag);
  const a = attrs || {};
  Object.keys(a).forEach(function (k) {
    const v = a[k];
    if (v === undefined || v === null || v === false) return;
    if (k === 'text') node.textContent = String(v);
    else if (k === 'class') node.className = String(v);
    else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v as EventListener);
    else node.setAttribute(k, v === true ? '' : String(v));
  });
  (kids || []).forEach(function (kid) {
    if (kid === null || kid === undefined || kid === false) return;
    node.appendChild(typeof kid === 'string' ? document.createTextNode(kid) : kid);
  });
  return node;
}
function clear(node: HTMLElement): HTMLElement { while (node.firstChild) node.removeChild(node.firstChild); return node; }
function fmt(n: number): string { return Number(n).toLocaleString('en-US'); }
function plural(n: number, one: string, many?: string): string { return fmt(n) + ' ' + (n === 1 ? one : (many || one + 's')); }
function pad(n: number, w: number): string { let s = String(n); while (s.length < w) s = '0' + s; return s; }
function clock(iso: string): string {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2) + '.' + pad(d.getMilliseconds(), 3);
}
function pretty(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
}

let toastTimer: number | undefined;
function toast(message: string | undefined, bad: boolean): void {
  const t = $('toast');
  t.textContent = message || '';
  t.className = bad ? 'toast bad' : 'toast';
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(function () { t.hidden = true; }, 3800);
}

const UNREACHABLE = 'The simulator cannot be reached.';
/** Every dashboard call carries its own header (a cross-site page cannot send it) and the admin token if there is one. */
function apiHeaders(): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-rdx-dashboard': '1' };
  if (S.token) headers['x-rdx-admin-token'] = S.token;
  return headers;
}
function reply<T>(res: Response): Promise<Reply<T>> {
  return res.text().then(function (text) {
    let json = {} as Body<T>;
    try { json = text ? JSON.parse(text) as Body<T> : json; } catch { json = { message: text } as Body<T>; }
    if (res.status === 401) showLogin('');
    return { status: res.status, ok: res.ok, body: json };
  });
}
/** body: sent as JSON, or as it is when it is a file (a snapshot). */
function api<T = Item>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const headers = apiHeaders();
  const init: RequestInit = { method: method, headers: headers, cache: 'no-store', credentials: 'same-origin' };
  if (body !== undefined) { headers['content-type'] = 'application/json'; init.body = body instanceof Blob ? body : JSON.stringify(body); }
  return fetch(API + path, init).then(function (res) { return reply<T>(res); }, function () {
    return { status: 0, ok: false, body: { message: UNREACHABLE } as Body<T> };
  });
}
function problem(r: Reply<unknown>): string {
  const b = r.body || {};
  const extra = (b.errors || []).map(function (e) { return e.message; }).filter(function (m) { return m && m !== b.message; });
  return (b.message || ('HTTP ' + r.status)) + (extra.length ? ' ' + extra.join('; ') : '');
}

/* ---------- login (only when the simulator requires the admin token) ---------- */
function showLogin(message: string): void {
  stopEvents();
  $('login').hidden = false;
  $('login-err').textContent = message;
  $('login-token').focus();
}
$('login').addEventListener('submit', function (e) {
  e.preventDefault();
  S.token = input('login-token').value.trim();
  api('GET', 'state').then(function (r) {
    if (!r.ok) { $('login-err').textContent = r.status === 401 ? 'That is not the admin token.' : problem(r); return; }
    try { sessionStorage.setItem(TOKEN_KEY, S.token); } catch { /* private mode: keep it in memory */ }
    $('login').hidden = true;
    input('login-token').value = '';
    start();
  });
});

/* ---------- state: header, quick start, data, chaos, run ---------- */
function baseUrl() { return S.state ? location.origin + S.state.basePath : location.origin; }
function shq(s: string): string { return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }

/** The store's counts as the page names them. */
const COUNTS: [string, string][] = [['jobOffers', 'ATS job offers'], ['applicationSteps', 'Application steps'], ['jobboardActivities', 'Jobboard activities'], ['jobboardJobOffers', 'Jobboard job offers'], ['users', 'Users']];

function renderState() {
  const st = S.state;
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
  chips.appendChild(h('span', { class: S.live ? 'chip live' : 'chip', id: 'live-chip' }, [h('span', { class: 'dot' }), S.live ? 'live' : 'connecting…']));

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

function loadState() {
  return api<State>('GET', 'state').then(function (r) {
    if (!r.ok) return false;
    S.state = r.body.data[0] || null;
    renderState();
    return true;
  });
}
let stateTimer: number | undefined;
function refreshSoon() {
  clearTimeout(stateTimer);
  stateTimer = window.setTimeout(function () {
    loadState();
    if (S.tab === 'personas') loadPersonas();
    if (S.tab === 'records') loadRecords();
  }, 120);
}

function renderRun(run: Run | undefined): void {
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
  const look = { CONFORMANT: 'pass', NOT_CONFORMANT: 'fail', INCOMPLETE: 'incomplete', KNOWN_FAILURES: 'known' }[c.verdict] || 'fail';
  box.className = 'verdict ' + look;
  box.setAttribute('data-verdict', c.verdict.toLowerCase().replace(/_/g, '-'));
  box.appendChild(h('div', { class: 'word', id: 'verdict-word', text: c.word }));
  box.appendChild(h('div', { class: 'why', id: 'verdict-line', text: c.line.slice(c.word.length + 2) + ', ' + under + '.' }));
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
    if (S.state && S.state.adminTokenRequired) {
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
$('run-btn').addEventListener('click', function () {
  button('run-btn').disabled = true;
  api<Run>('POST', 'runs').then(function (r) {
    if (!r.ok) { toast(problem(r), true); loadState(); return; }
    if (S.state) S.state.run = r.body.data[0];
    renderRun(r.body.data[0]);
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

/* ---------- copy ---------- */
document.addEventListener('click', function (e) {
  const target = e.target as Element | null;
  const btn = target && target.closest ? target.closest('[data-copy]') : null;
  if (!btn) return;
  const copied = $(btn.getAttribute('data-copy') || '');
  const text = copied.textContent || '';
  function done(): void { if (!btn) return; const old = btn.textContent; btn.textContent = 'Copied'; setTimeout(function () { if (btn) btn.textContent = old; }, 1400); }
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { fallback(); });
  else fallback();
  function fallback(): void {
    const range = document.createRange();
    range.selectNodeContents(copied);
    const sel = window.getSelection();
    if (!sel) return;
    sel.removeAllRanges();
    sel.addRange(range);
    try { if (document.execCommand('copy')) done(); } catch { toast('Select the text and copy it.', false); }
  }
});

/* ---------- tabs ---------- */
function showTab(name: string): void {
  S.tab = name;
  ['journal', 'records', 'personas'].forEach(function (t) {
    $('tab-' + t).setAttribute('aria-selected', String(t === name));
    $('panel-' + t).hidden = t !== name;
  });
  if (name === 'records') loadRecords();
  if (name === 'personas') loadPersonas();
}
['journal', 'records', 'personas'].forEach(function (t) {
  $('tab-' + t).addEventListener('click', function () { showTab(t); });
});

/* ---------- live journal ---------- */
function statusClass(s: number): string { return s === 0 ? 's0' : 's' + String(s).charAt(0); }
function statusPill(s: number): HTMLElement { return h('span', { class: 'st ' + statusClass(s), text: s === 0 ? 'dropped' : String(s) }); }
function matchesFilter(e: JournalSummary): boolean {
  const f = S.journal.filter;
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
  if (S.journal.selected === e.id) tr.className += ' sel';
  return tr;
}
function journalInfo() {
  const n = $('j-body').children.length;
  $('j-empty').hidden = n > 0;
  $('j-table').hidden = n === 0;
  const keep = S.state ? S.state.journalSize : 500;
  $('j-info').textContent = plural(n, 'request') + ' shown · the simulator keeps the latest ' + fmt(keep);
  $('j-pause').textContent = S.journal.paused ? (S.journal.held.length ? 'Resume (' + fmt(S.journal.held.length) + ' new)' : 'Resume') : 'Pause';
}
function addEntries(list: JournalSummary[], snapshot: boolean): void {
  const body = $('j-body');
  if (snapshot) { clear(body); S.journal.held = []; }
  if (S.journal.paused && !snapshot) {
    S.journal.held = S.journal.held.concat(list).slice(-MAX_ROWS);
    journalInfo();
    return;
  }
  list.forEach(function (e) { body.insertBefore(journalRow(e, !snapshot), body.firstChild); });
  while (body.lastChild && body.children.length > MAX_ROWS) body.removeChild(body.lastChild);
  journalInfo();
}
$('j-pause').addEventListener('click', function () {
  S.journal.paused = !S.journal.paused;
  if (!S.journal.paused && S.journal.held.length) { const held = S.journal.held; S.journal.held = []; addEntries(held, false); }
  journalInfo();
});
$('j-clear').addEventListener('click', function () { clear($('j-body')); closeJournalDetail(); journalInfo(); });
input('j-filter').addEventListener('input', function (this: HTMLInputElement) {
  S.journal.filter = this.value.trim().toLowerCase();
  Array.prototype.forEach.call($('j-body').children, function (tr: JournalRowElement) { tr.hidden = !tr.rdx || !matchesFilter(tr.rdx); });
});
$('j-body').addEventListener('click', function (e) {
  const tr = (e.target as Element).closest('tr') as JournalRowElement | null;
  if (!tr || !tr.rdx) return;
  Array.prototype.forEach.call($('j-body').querySelectorAll('tr.sel'), function (r: Element) { r.classList.remove('sel'); });
  tr.classList.add('sel');
  S.journal.selected = tr.rdx.id;
  showJournalDetail(tr.rdx);
});
function closeJournalDetail() {
  S.journal.selected = null;
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
    if (S.journal.selected !== sum.id) return;
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

/* ---------- live events: Server-Sent Events read through fetch, so the admin token can go in a header ---------- */
function setLive(on: boolean): void {
  S.live = on;
  const chip = $('live-chip');
  if (chip) { chip.className = on ? 'chip live' : 'chip'; if (chip.lastChild) chip.lastChild.textContent = on ? 'live' : 'reconnecting…'; }
}
function dispatch(block: string): void {
  let event = 'message';
  let data = '';
  block.split('\n').forEach(function (line) {
    if (line.indexOf('event:') === 0) event = line.slice(6).trim();
    else if (line.indexOf('data:') === 0) data += line.slice(5).trim();
  });
  if (!data) return;
  let msg;
  try { msg = JSON.parse(data); } catch { return; }
  if (event === 'journal') addEntries(msg.entries, msg.snapshot);
  else if (event === 'reset') { clear($('j-body')); closeJournalDetail(); journalInfo(); }
  else if (event === 'state') refreshSoon();
  else if (event === 'run') {
    if (S.state) S.state.run = msg.run;
    renderRun(msg.run);
    if (msg.run.state !== 'running') refreshSoon();
  }
}
function stopEvents() {
  S.events.stopped = true;
  clearTimeout(S.events.timer);
  if (S.events.ctrl) S.events.ctrl.abort();
}
function connectEvents() {
  S.events.stopped = false;
  const ctrl = new AbortController();
  S.events.ctrl = ctrl;
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (S.token) headers['x-rdx-admin-token'] = S.token;
  fetch(API + 'events', { headers: headers, cache: 'no-store', signal: ctrl.signal }).then(function (res) {
    if (res.status === 401) { showLogin(''); return; }
    if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
    S.events.failures = 0;
    setLive(true);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    function pump(): Promise<void> {
      return reader.read().then(function (r) {
        if (r.done) throw new Error('stream ended');
        buffer += decoder.decode(r.value, { stream: true }).replace(/\r/g, '');
        for (let i = buffer.indexOf('\n\n'), n = 0; i >= 0 && n < 10000; i = buffer.indexOf('\n\n'), n++) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          dispatch(block);
        }
        if (buffer.length > 8000000) throw new Error('event too large');
        return pump();
      });
    }
    return pump();
  }).catch(function () {
    setLive(false);
    if (S.events.stopped) return;
    S.events.failures += 1;
    if (S.events.failures > 60) { toast('The live journal stopped; reload the page to start it again.', true); return; }
    S.events.timer = window.setTimeout(function () { if (!S.events.stopped) { loadState(); connectEvents(); } }, Math.min(10000, 500 * S.events.failures));
  });
}

/* ---------- records ---------- */
function resourceOf(id: string): Resource { return RESOURCES.filter(function (r) { return r.id === id; })[0] || (RESOURCES[0] as Resource); }
function renderResourceButtons() {
  const seg = clear($('r-seg'));
  RESOURCES.forEach(function (r) {
    const n = r.count && S.state ? S.state.counts[r.count] ?? null : null;
    seg.appendChild(h('button', { type: 'button', 'data-resource': r.id, 'aria-pressed': String(r.id === S.records.resource), onclick: function () { go(r.id, ''); } },
      [r.label, n === null ? null : h('span', { class: 'n', text: fmt(n) })]));
  });
}
function go(resource: string, ref: string): void {
  S.records.resource = resource;
  S.records.ref = ref;
  S.records.page = 1;
  S.records.q = '';
  S.records.selected = null;
  input('r-search').value = '';
  if (S.tab !== 'records') showTab('records'); else loadRecords();
  renderResourceButtons();
}
let searchTimer: number | undefined;
input('r-search').addEventListener('input', function (this: HTMLInputElement) {
  const v = this.value;
  clearTimeout(searchTimer);
  searchTimer = window.setTimeout(function () { S.records.q = v; S.records.page = 1; loadRecords(); }, 250);
});
$('r-prev').addEventListener('click', function () { if (S.records.page > 1) { S.records.page -= 1; loadRecords(); } });
$('r-next').addEventListener('click', function () { S.records.page += 1; loadRecords(); });
$('r-close').addEventListener('click', function () { S.records.selected = null; $('r-detail').hidden = true; $('r-split').className = 'split'; markRecord(); });

function refLink(ref: string, exists: boolean): HTMLElement {
  if (!exists) return h('span', { class: 'mono', title: 'No ATS job offer has this reference', text: ref });
  return h('button', { type: 'button', class: 'btn link mono', title: 'Show this job offer', text: ref, onclick: function (e: Event) { e.stopPropagation(); go('job-offers', ref); } });
}
const LINKS: [string, string, string][] = [['attributes', 'attributes', 'Attributes'], ['application-steps', 'applicationSteps', 'Steps'], ['jobboard-activities', 'jobboardActivities', 'Activities'], ['jobboard-job-offers', 'jobboardJobOffers', 'Jobboard']];
function linkCell(ref: string, resource: string, n: number | undefined): HTMLElement {
  if (!n) return h('td', { class: 'num' }, [h('span', { class: 'zero', text: '0' })]);
  return h('td', { class: 'num' }, [h('button', { type: 'button', class: 'btn link', 'data-link': resource, title: 'Show them', text: fmt(n), onclick: function (e: Event) { e.stopPropagation(); go(resource, ref); } })]);
}
function loadRecords() {
  const r = S.records;
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
          const exists = res.id === 'job-offers' ? false : !!(linked && linked.jobOffer);
          row.appendChild(h('td', { class: 'mono' }, [res.id === 'job-offers' ? h('span', { class: 'mono', text: v }) : refLink(v, exists)]));
        } else {
          const text = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
          row.appendChild(h('td', { class: cls, title: text.length > 40 ? text : null, text: text }));
        }
      });
      const reference = String(item['reference']);
      if (res.links) LINKS.forEach(function (l) { row.appendChild(linkCell(reference, l[0], (meta.links[reference] || {})[l[1]])); });
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
function markRecord() {
  Array.prototype.forEach.call($('r-body').children, function (tr) { tr.classList.toggle('sel', S.records.selected !== null && tr.rdx === S.records.selected); });
}
$('r-body').addEventListener('click', function (e) {
  const tr = (e.target as Element).closest('tr') as RowElement | null;
  if (!tr || !tr.rdx) return;
  const rec = tr.rdx;
  S.records.selected = rec;
  markRecord();
  const res = resourceOf(S.records.resource);
  $('r-split').className = 'split open';
  $('r-detail').hidden = false;
  const title = res.ref && rec[res.ref] ? res.label + ' · ' + String(rec[res.ref]) : res.label + (rec['id'] !== undefined ? ' · ' + String(rec['id']) : rec['mail'] ? ' · ' + String(rec['mail']) : '');
  $('r-dtitle').textContent = title;
  const b = clear($('r-dbody'));
  const ref = res.ref && typeof rec[res.ref] === 'string' ? rec[res.ref] as string : null;
  const links = ref ? (tr.rdxLinks || {})[ref] : undefined;
  if (ref && links) {
    const shown = ref;
    const linkCounts = links;
    const related = h('div', { class: 'related' });
    if (res.id === 'job-offers') {
      LINKS.forEach(function (l) {
        const n = linkCounts[l[1]];
        if (n) related.appendChild(h('button', { type: 'button', class: 'btn', text: l[2] + ' (' + fmt(n) + ')', onclick: function () { go(l[0], shown); } }));
      });
      if (!related.firstChild) related.appendChild(h('span', { class: 'muted small', text: 'Nothing links to this job offer.' }));
    } else if (links.jobOffer) {
      related.appendChild(h('button', { type: 'button', class: 'btn', text: 'Job offer ' + ref, onclick: function () { go('job-offers', shown); } }));
    } else related.appendChild(h('span', { class: 'muted small', text: 'No ATS job offer has the reference ' + ref + '.' }));
    b.appendChild(h('h3', { text: 'Linked' }));
    b.appendChild(related);
  }
  b.appendChild(h('h3', { text: 'Record' }));
  b.appendChild(h('pre', { text: JSON.stringify(rec, null, 2) }));
});

/* ---------- personas ---------- */
function loadPersonas() {
  return api<PersonaInfo>('GET', 'personas').then(function (r) {
    if (!r.ok) return;
    S.personas = r.body.data;
    renderPersonas();
  });
}
function activeNames(): string[] {
  const active = S.state ? S.state.personas.map(function (p) { return p.name; }) : [];
  S.personas.forEach(function (p) { if (p.active && active.indexOf(p.name) < 0) active.push(p.name); });
  return active;
}
function setPersona(name: string, on: boolean): void {
  const names = activeNames().filter(function (n) { return n !== name; });
  if (on) names.push(name);
  api<PersonaInfo>('PUT', 'personas', { active: names }).then(function (r) {
    toast(r.ok ? r.body.message : problem(r), !r.ok);
    if (r.ok) { S.personas = r.body.data; renderPersonas(); loadState(); }
  });
}
function renderPersonas() {
  const list = clear($('p-list'));
  const f = S.personaFilter;
  const shown = S.personas.filter(function (p) {
    return !f || (p.name + ' ' + p.description + ' ' + p.breaks.join(' ') + ' ' + p.interprets.join(' ')).toLowerCase().indexOf(f) >= 0;
  });
  const on = S.personas.filter(function (p) { return p.active; }).length;
  $('p-info').textContent = on ? plural(on, 'persona') + ' on' : 'None on: the simulator follows the spec and its defaults.';
  button('p-off').disabled = on === 0;
  [['fault', 'Faults', 'Break the spec on purpose: a conformance run should turn red.'], ['variant', 'Legal variants', 'Read an open point another legal way: a run should stay conformant.']].forEach(function (g) {
    const group = shown.filter(function (p) { return p.kind === g[0]; });
    if (!group.length) return;
    list.appendChild(h('div', { class: 'pgroup' }, [h('h3', { text: g[1] + ' (' + group.length + ')' }), h('p', { text: g[2] })]));
    group.forEach(function (p) {
      const id = 'persona-' + p.name;
      const box = h('input', { type: 'checkbox', class: 'switch', id: id, role: 'switch', 'data-persona': p.name, 'aria-label': p.name }) as HTMLInputElement;
      box.checked = p.active;
      box.addEventListener('change', function () { setPersona(p.name, box.checked); });
      const tags = p.breaks.map(function (c) { return h('span', { class: 'tag', title: 'breaks ' + c, text: c }); })
        .concat(p.interprets.map(function (c) { return h('span', { class: 'tag', title: 'reads ' + c + ' another way', text: c }); }));
      list.appendChild(h('div', { class: 'persona ' + p.kind + (p.active ? ' on' : '') }, [
        box,
        h('label', { class: 'name', for: id, text: p.name }),
        h('div', { class: 'desc', text: p.description }),
        tags.length ? h('div', { class: 'tags' }, tags) : null
      ]));
    });
  });
  if (!shown.length) list.appendChild(h('p', { class: 'empty', text: 'No persona matches.' }));
}
input('p-filter').addEventListener('input', function (this: HTMLInputElement) { S.personaFilter = this.value.trim().toLowerCase(); renderPersonas(); });
$('p-off').addEventListener('click', function () {
  api<PersonaInfo>('PUT', 'personas', { active: [] }).then(function (r) {
    toast(r.ok ? r.body.message : problem(r), !r.ok);
    if (r.ok) { S.personas = r.body.data; renderPersonas(); loadState(); }
  });
});

function start() {
  loadState().then(function (ok) {
    if (!ok) return;
    journalInfo();
    connectEvents();
    loadPersonas();
  });
}
window.addEventListener('pagehide', stopEvents);
journalInfo();
start();

export {};
