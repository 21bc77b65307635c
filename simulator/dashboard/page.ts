// The dashboard page: one self-contained document (inline style and script, system fonts, no asset, no request
// beyond its own origin). The style and script are pinned by hash in the Content-Security-Policy, so nothing else
// can run or style the page, not even a record or a request body someone managed to fill with markup. The script
// builds every piece of data into the page with textContent, never as HTML.
import { createHash } from 'node:crypto';

const STYLE = String.raw`
:root {
  --bg: #f4f6f8; --card: #fff; --ink: #1c2430; --muted: #5d6775; --faint: #8a94a1; --rule: #dfe3e8; --soft: #f6f8fa;
  --accent: #2657c5; --accent-soft: #eaf0fd; --pass: #17753a; --pass-bg: #e6f5ea; --pass-rule: #b8e0c4;
  --fail: #b42318; --fail-bg: #fdeeec; --fail-rule: #f3c3bd; --warn: #8a5a00; --warn-bg: #fff4dc;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 var(--sans); font-variant-numeric: tabular-nums; }
button, input { font: inherit; color: inherit; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
code, pre, .mono { font-family: var(--mono); font-size: 12.5px; }
h2 { font-size: 13px; font-weight: 650; letter-spacing: .05em; text-transform: uppercase; color: var(--muted); margin: 0 0 10px; }
.muted { color: var(--muted); }
.small { font-size: 12.5px; }

.top { position: sticky; top: 0; z-index: 5; display: flex; align-items: center; justify-content: space-between; gap: 20px;
  padding: 12px 24px; background: var(--card); border-bottom: 1px solid var(--rule); }
.brand { display: flex; align-items: center; gap: 12px; min-width: 0; }
.mark { width: 30px; height: 30px; border-radius: 8px; background: var(--accent); color: #fff; display: grid; place-items: center;
  font-weight: 750; font-size: 13px; letter-spacing: .02em; flex: none; }
.brand h1 { font-size: 16px; font-weight: 650; margin: 0; }
.brand .base { font-family: var(--mono); font-size: 12.5px; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.chips { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; }
.chip { display: inline-flex; align-items: center; gap: 6px; padding: 3px 10px; border: 1px solid var(--rule); border-radius: 999px;
  background: var(--soft); font-size: 12.5px; color: var(--muted); white-space: nowrap; }
.chip b { color: var(--ink); font-weight: 600; }
.chip.fault { background: var(--fail-bg); border-color: var(--fail-rule); color: var(--fail); }
.chip.fault b { color: var(--fail); }
.chip.variant, .chip.chaos { background: var(--warn-bg); border-color: #f0d9a6; color: var(--warn); }
.chip.variant b, .chip.chaos b { color: var(--warn); }
.dot { width: 8px; height: 8px; border-radius: 50%; background: var(--faint); }
.live .dot { background: #22a454; box-shadow: 0 0 0 3px #22a45426; }

.layout { display: grid; grid-template-columns: 404px minmax(0, 1fr); gap: 20px; padding: 20px 24px 32px; max-width: 1680px; margin: 0 auto; align-items: start; }
.card { background: var(--card); border: 1px solid var(--rule); border-radius: 10px; padding: 16px 18px; margin-bottom: 16px; }
.card:last-child { margin-bottom: 0; }
.lead { margin: -4px 0 12px; color: var(--muted); font-size: 13px; }

.btn { display: inline-flex; align-items: center; justify-content: center; gap: 6px; padding: 7px 13px; border: 1px solid var(--rule);
  border-radius: 7px; background: var(--card); font-weight: 600; font-size: 13px; cursor: pointer; text-decoration: none; color: var(--ink); }
.btn:hover { background: var(--soft); }
.btn:disabled { opacity: .55; cursor: default; }
.btn.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.btn.primary:hover { background: #1f4aa9; }
.btn.big { width: 100%; padding: 11px 14px; font-size: 14.5px; }
.btn.link { border: 0; background: none; padding: 0; color: var(--accent); font-weight: 600; }
.btn.link:hover { text-decoration: underline; background: none; }
.row { display: flex; gap: 8px; align-items: end; flex-wrap: wrap; }
.row + .row { margin-top: 10px; }
.field { display: flex; flex-direction: column; gap: 3px; flex: 1; min-width: 0; }
.field span { font-size: 12px; color: var(--muted); font-weight: 600; }
.field input { width: 100%; padding: 6px 9px; border: 1px solid var(--rule); border-radius: 7px; background: #fff; }
.field input:focus { border-color: var(--accent); outline: none; box-shadow: 0 0 0 3px var(--accent-soft); }
.now { margin: 10px 0 0; font-size: 12.5px; color: var(--muted); }
.now b { color: var(--ink); font-weight: 600; }

.verdict { margin-top: 14px; border-radius: 9px; border: 1px solid var(--rule); background: var(--soft); padding: 14px 16px; }
.verdict .word { font-size: 24px; font-weight: 750; letter-spacing: .01em; line-height: 1.15; }
.verdict .why { margin-top: 4px; font-size: 13px; }
.verdict.pass { background: var(--pass-bg); border-color: var(--pass-rule); }
.verdict.pass .word { color: var(--pass); }
.verdict.fail { background: var(--fail-bg); border-color: var(--fail-rule); }
.verdict.fail .word { color: var(--fail); }
.verdict.running .word { color: var(--accent); font-size: 18px; }
.stats { display: grid; grid-template-columns: repeat(3, 1fr); gap: 6px; margin-top: 12px; }
.stat { background: #ffffffb3; border: 1px solid #00000012; border-radius: 7px; padding: 6px 8px; }
.stat b { display: block; font-size: 17px; font-weight: 700; line-height: 1.2; }
.stat span { font-size: 11.5px; color: var(--muted); }
.stat.bad b { color: var(--fail); }
.stat.warn b { color: var(--warn); }
.verdict .foot { display: flex; justify-content: space-between; align-items: center; gap: 8px; margin-top: 12px; font-size: 12.5px; }
.verdict .open { display: block; margin-top: 10px; text-align: center; padding: 8px; border-radius: 7px; background: #fff; border: 1px solid #00000014; font-weight: 600; color: var(--accent); text-decoration: none; cursor: pointer; width: 100%; font-size: 13px; }
.verdict .open:hover { background: var(--soft); }
.clauses { margin-top: 12px; }
.clauses .lbl { font-size: 11.5px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 650; margin-bottom: 4px; }
.clause { display: flex; justify-content: space-between; gap: 8px; font-size: 12.5px; padding: 3px 0; border-top: 1px solid #00000010; }
.clause code { font-size: 12px; font-weight: 600; }
.clause .caught { color: var(--pass); font-weight: 600; white-space: nowrap; }
.spinner { display: inline-block; width: 14px; height: 14px; border: 2px solid var(--accent-soft); border-top-color: var(--accent); border-radius: 50%;
  animation: spin .8s linear infinite; vertical-align: -2px; margin-right: 6px; }
@keyframes spin { to { transform: rotate(360deg); } }

dl.kv { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 5px 12px; margin: 0 0 12px; font-size: 13px; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
.snippet { margin-top: 10px; }
.snippet-h { display: flex; justify-content: space-between; align-items: center; font-size: 12px; font-weight: 600; color: var(--muted); margin-bottom: 4px; }
pre.code { margin: 0; padding: 9px 11px; background: var(--soft); border: 1px solid var(--rule); border-radius: 7px;
  white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.5; font-size: 11.5px; }
.copy { padding: 2px 9px; font-size: 12px; }
.counts { display: grid; grid-template-columns: 1fr auto; gap: 2px 10px; margin: 12px 0 0; font-size: 12.5px; }
.counts dd { margin: 0; text-align: right; font-weight: 600; }
.counts dt { color: var(--muted); }

.panel-card { position: sticky; top: 76px; height: calc(100vh - 96px); min-height: 480px; display: flex; flex-direction: column; padding: 0; overflow: hidden; }
.tabs { display: flex; gap: 2px; padding: 0 14px; border-bottom: 1px solid var(--rule); flex: none; }
.tab { border: 0; background: none; padding: 12px 12px 10px; font-weight: 600; color: var(--muted); border-bottom: 2px solid transparent; cursor: pointer; }
.tab[aria-selected="true"] { color: var(--ink); border-bottom-color: var(--accent); }
.tab .n { margin-left: 6px; padding: 0 7px; border-radius: 999px; background: var(--soft); border: 1px solid var(--rule); font-size: 11.5px; color: var(--muted); }
.panel { flex: 1; min-height: 0; display: flex; flex-direction: column; }
.toolbar { display: flex; align-items: center; gap: 10px; padding: 10px 14px; border-bottom: 1px solid var(--rule); flex: none; flex-wrap: wrap; }
.toolbar .search { flex: 1; min-width: 160px; max-width: 360px; padding: 6px 10px; border: 1px solid var(--rule); border-radius: 7px; }
.toolbar .info { margin-left: auto; font-size: 12.5px; color: var(--muted); }
.split { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(0, 1fr); }
.split.open { grid-template-columns: minmax(0, 1fr) minmax(320px, 38%); }
.scroll { overflow: auto; min-height: 0; }
table.grid { width: 100%; border-collapse: collapse; font-size: 13px; }
table.grid th { position: sticky; top: 0; z-index: 1; background: #fafbfc; text-align: left; font-size: 11.5px; font-weight: 650; color: var(--muted);
  text-transform: uppercase; letter-spacing: .04em; padding: 8px 10px; border-bottom: 1px solid var(--rule); white-space: nowrap; }
table.grid td { padding: 7px 10px; border-bottom: 1px solid #edf0f3; white-space: nowrap; vertical-align: middle; }
table.grid td.wide { max-width: 0; width: 100%; overflow: hidden; text-overflow: ellipsis; }
table.grid tbody tr { cursor: pointer; }
table.grid tbody tr:hover { background: #f7f9fc; }
table.grid tbody tr.sel { background: var(--accent-soft); }
table.grid td.num { text-align: right; }
tr.new { animation: arrive 1.2s ease-out; }
@keyframes arrive { from { background: #fff6d6; } to { background: transparent; } }
@media (prefers-reduced-motion: reduce) { tr.new, .spinner { animation: none; } }
.empty { padding: 48px 24px; text-align: center; color: var(--muted); }
.empty b { display: block; color: var(--ink); font-size: 15px; margin-bottom: 4px; }

.m { display: inline-block; min-width: 48px; text-align: center; font: 650 11px var(--mono); padding: 2px 6px; border-radius: 5px; background: #eef1f5; color: #3b4654; }
.m.GET { background: #e8f0fe; color: #1d4fb8; }
.m.POST { background: #e5f5ea; color: #17753a; }
.m.PUT { background: #f1ebfb; color: #6a3fb5; }
.m.PATCH { background: #fff2dc; color: #8a5a00; }
.m.DELETE { background: #fdeeec; color: #b42318; }
.st { display: inline-block; min-width: 40px; text-align: center; padding: 1px 8px; border-radius: 999px; font-weight: 650; font-size: 12px; }
.st.s2 { background: var(--pass-bg); color: var(--pass); }
.st.s3 { background: #e8f0fe; color: #1d4fb8; }
.st.s4 { background: var(--warn-bg); color: var(--warn); }
.st.s5 { background: var(--fail-bg); color: var(--fail); }
.st.s0 { background: #38414d; color: #fff; }
.lat { color: var(--muted); }
.who { color: var(--muted); font-size: 12.5px; }

.detail { border-left: 1px solid var(--rule); display: flex; flex-direction: column; min-height: 0; background: #fcfcfd; }
.detail-h { display: flex; align-items: flex-start; gap: 10px; padding: 12px 14px; border-bottom: 1px solid var(--rule); }
.detail-h .t { flex: 1; min-width: 0; font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
.detail-h .meta { margin-top: 8px; display: flex; flex-wrap: wrap; gap: 6px 14px; font-family: var(--sans); font-size: 12.5px; color: var(--muted); align-items: center; }
.detail-b { overflow: auto; padding: 4px 14px 16px; }
.detail-b h3 { font-size: 11.5px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 14px 0 6px; }
.detail-b pre { margin: 0; padding: 9px 11px; background: #fff; border: 1px solid var(--rule); border-radius: 7px; white-space: pre-wrap; word-break: break-word; max-height: 44vh; overflow: auto; }
.detail-b dl.kv { margin: 0; }
.x { border: 0; background: none; font-size: 18px; line-height: 1; color: var(--muted); cursor: pointer; padding: 2px 4px; }

.seg { display: flex; flex-wrap: wrap; gap: 6px; }
.seg button { border: 1px solid var(--rule); background: #fff; border-radius: 999px; padding: 4px 11px; font-size: 12.5px; font-weight: 600; color: var(--muted); cursor: pointer; }
.seg button[aria-pressed="true"] { background: var(--accent-soft); border-color: #bccbf2; color: var(--accent); }
.seg button .n { font-weight: 500; margin-left: 4px; color: var(--faint); }
.filter { display: inline-flex; align-items: center; gap: 6px; padding: 3px 6px 3px 10px; border-radius: 999px; background: var(--accent-soft); color: var(--accent); font-size: 12.5px; font-weight: 600; }
td .zero { color: #b7bec8; }
.related { display: flex; flex-wrap: wrap; gap: 8px; }
.pager { display: flex; align-items: center; justify-content: space-between; gap: 10px; padding: 8px 14px; border-top: 1px solid var(--rule); font-size: 12.5px; color: var(--muted); flex: none; }

.plist { padding: 6px 14px 16px; }
.pgroup { margin: 14px 0 6px; display: flex; align-items: baseline; gap: 10px; }
.pgroup h3 { margin: 0; font-size: 14px; }
.pgroup p { margin: 0; font-size: 12.5px; color: var(--muted); }
.persona { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 2px 12px; padding: 9px 10px; border: 1px solid transparent; border-radius: 8px; }
.persona:hover { background: var(--soft); }
.persona.on { background: var(--accent-soft); border-color: #c9d6f5; }
.persona.on.fault { background: var(--fail-bg); border-color: var(--fail-rule); }
.persona .name { font-family: var(--mono); font-size: 13px; font-weight: 600; }
.persona .desc { grid-column: 2; font-size: 12.5px; color: var(--muted); }
.persona .tags { grid-column: 2; display: flex; flex-wrap: wrap; gap: 4px; margin-top: 3px; }
.tag { font-family: var(--mono); font-size: 11px; padding: 0 6px; border-radius: 4px; background: #eef1f5; color: #465261; }
.switch { appearance: none; -webkit-appearance: none; margin: 1px 0 0; width: 34px; height: 20px; border-radius: 999px; background: #c9d1da; position: relative; cursor: pointer; transition: background .15s; }
.switch::before { content: ""; position: absolute; top: 2px; left: 2px; width: 16px; height: 16px; border-radius: 50%; background: #fff; box-shadow: 0 1px 2px #0003; transition: left .15s; }
.switch:checked { background: var(--accent); }
.fault .switch:checked { background: var(--fail); }
.switch:checked::before { left: 16px; }

.login { position: fixed; inset: 0; z-index: 20; background: #1c243066; display: grid; place-items: center; padding: 20px; }
.login > div { width: min(420px, 100%); background: #fff; border-radius: 12px; padding: 22px 24px; box-shadow: 0 20px 50px #0003; }
.login h2 { font-size: 17px; text-transform: none; letter-spacing: 0; color: var(--ink); }
.login .err { color: var(--fail); font-size: 13px; min-height: 18px; margin: 6px 0 0; }
.toast { position: fixed; left: 50%; bottom: 24px; transform: translateX(-50%); z-index: 30; background: #1c2430; color: #fff; padding: 9px 16px; border-radius: 8px; font-size: 13px; box-shadow: 0 8px 24px #0003; max-width: 80vw; }
.toast.bad { background: var(--fail); }
@media (max-width: 980px) { .layout { grid-template-columns: 1fr; } .panel-card { position: static; height: 80vh; } }
`;

const SCRIPT = String.raw`
(function () {
  'use strict';
  var API = '/__admin/api/';
  var TOKEN_KEY = 'rdx-admin-token';
  var MAX_ROWS = 300;
  var RESOURCES = [
    { id: 'job-offers', label: 'ATS job offers', count: 'jobOffers', ref: 'reference', cols: [['reference', 'Reference', 'ref'], ['title', 'Title', 'wide'], ['publication_at', 'Published', ''], ['subsidiary', 'Subsidiary', '']], links: true },
    { id: 'attributes', label: 'Attributes', count: null, ref: 'job_offer_reference', cols: [['job_offer_reference', 'Job offer', 'ref'], ['name', 'Name', 'mono'], ['value', 'Value', 'wide']] },
    { id: 'application-steps', label: 'Application steps', count: 'applicationSteps', ref: 'job_offer_reference', cols: [['id', 'Id', 'num'], ['recorded_at', 'Recorded', ''], ['job_offer_reference', 'Job offer', 'ref'], ['step', 'Step', ''], ['candidate_ats_id', 'Candidate', 'mono'], ['application_ats_id', 'Application', 'wide mono']] },
    { id: 'jobboard-activities', label: 'Jobboard activities', count: 'jobboardActivities', ref: 'job_offer_reference', cols: [['id', 'Id', 'num'], ['recorded_at', 'Recorded', ''], ['job_offer_reference', 'Job offer', 'ref'], ['status', 'Status', ''], ['count', 'Count', 'num'], ['subsidiary', 'Subsidiary', 'wide']] },
    { id: 'jobboard-job-offers', label: 'Jobboard job offers', count: 'jobboardJobOffers', ref: 'reference', cols: [['id', 'Id', 'num'], ['reference', 'Job offer', 'ref'], ['title', 'Title', 'wide'], ['subsidiary', 'Subsidiary', '']] },
    { id: 'users', label: 'Users', count: 'users', ref: null, cols: [['mail', 'Mail', 'mono'], ['first_name', 'First name', ''], ['last_name', 'Last name', ''], ['subsidiary', 'Subsidiary', 'wide'], ['status', 'Status', '']] }
  ];

  var S = {
    token: '', state: null, personas: [], personaFilter: '', tab: 'journal', live: false,
    journal: { paused: false, held: [], filter: '', selected: null, count: 0 },
    records: { resource: 'job-offers', q: '', ref: '', page: 1, size: 25, selected: null, seq: 0 },
    events: { ctrl: null, failures: 0, stopped: false, timer: null }
  };
  try { S.token = sessionStorage.getItem(TOKEN_KEY) || ''; } catch (e) { S.token = ''; }

  function $(id) { return document.getElementById(id); }
  function h(tag, attrs, kids) {
    var node = document.createElement(tag);
    var a = attrs || {};
    Object.keys(a).forEach(function (k) {
      var v = a[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') node.textContent = String(v);
      else if (k === 'class') node.className = v;
      else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    });
    (kids || []).forEach(function (kid) {
      if (kid === null || kid === undefined || kid === false) return;
      node.appendChild(typeof kid === 'string' ? document.createTextNode(kid) : kid);
    });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function fmt(n) { return Number(n).toLocaleString('en-US'); }
  function plural(n, one, many) { return fmt(n) + ' ' + (n === 1 ? one : (many || one + 's')); }
  function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }
  function clock(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return iso;
    return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2) + '.' + pad(d.getMilliseconds(), 3);
  }
  function pretty(text) {
    if (text === null || text === undefined) return null;
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; }
  }

  var toastTimer = null;
  function toast(message, bad) {
    var t = $('toast');
    t.textContent = message;
    t.className = bad ? 'toast bad' : 'toast';
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { t.hidden = true; }, 3800);
  }

  function api(method, path, body) {
    var headers = { accept: 'application/json', 'x-rdx-dashboard': '1' };
    if (S.token) headers['x-rdx-admin-token'] = S.token;
    var init = { method: method, headers: headers, cache: 'no-store', credentials: 'same-origin' };
    if (body !== undefined) { headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(API + path, init).then(function (res) {
      return res.text().then(function (text) {
        var json = {};
        try { json = text ? JSON.parse(text) : {}; } catch (e) { json = { message: text }; }
        if (res.status === 401) showLogin('');
        return { status: res.status, ok: res.ok, body: json };
      });
    }, function () {
      return { status: 0, ok: false, body: { message: 'The simulator cannot be reached.' } };
    });
  }
  function problem(r) {
    var b = r.body || {};
    var extra = (b.errors || []).map(function (e) { return e.message; }).filter(function (m) { return m && m !== b.message; });
    return (b.message || ('HTTP ' + r.status)) + (extra.length ? ' ' + extra.join('; ') : '');
  }

  /* ---------- login (only when the simulator requires the admin token) ---------- */
  function showLogin(message) {
    stopEvents();
    $('login').hidden = false;
    $('login-err').textContent = message;
    $('login-token').focus();
  }
  $('login').addEventListener('submit', function (e) {
    e.preventDefault();
    S.token = $('login-token').value.trim();
    api('GET', 'state').then(function (r) {
      if (!r.ok) { $('login-err').textContent = r.status === 401 ? 'That is not the admin token.' : problem(r); return; }
      try { sessionStorage.setItem(TOKEN_KEY, S.token); } catch (err) { /* private mode: keep it in memory */ }
      $('login').hidden = true;
      $('login-token').value = '';
      start();
    });
  });

  /* ---------- state: header, quick start, data, chaos, run ---------- */
  function baseUrl() { return S.state ? location.origin + S.state.basePath : location.origin; }
  function shq(s) { return /^[A-Za-z0-9_.\/:@%+=,-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }

  function renderState() {
    var st = S.state;
    if (!st) return;
    var base = baseUrl();
    $('h-base').textContent = base;
    var chips = clear($('h-chips'));
    chips.appendChild(h('span', { class: 'chip' }, [h('b', { text: 'seed ' + st.seed }), ' · ' + plural(st.records, 'record')]));
    var faults = st.personas.filter(function (p) { return p.kind === 'fault'; });
    var variants = st.personas.filter(function (p) { return p.kind === 'variant'; });
    if (faults.length) chips.appendChild(h('span', { class: 'chip fault', title: 'Fault personas break the spec on purpose' }, ['fault ', h('b', { text: faults.map(function (p) { return p.name; }).join(', ') })]));
    if (variants.length) chips.appendChild(h('span', { class: 'chip variant', title: 'Legal variants read open points another way' }, ['variant ', h('b', { text: variants.map(function (p) { return p.name; }).join(', ') })]));
    if (!st.personas.length) chips.appendChild(h('span', { class: 'chip', title: 'No fault or variant: the simulator follows the spec and its defaults' }, ['personas ', h('b', { text: 'none' })]));
    chips.appendChild(h('span', { class: st.chaos.active ? 'chip chaos' : 'chip' }, ['chaos ', h('b', { text: st.chaos.active ? st.chaos.text : 'off' })]));
    chips.appendChild(h('span', { class: S.live ? 'chip live' : 'chip', id: 'live-chip' }, [h('span', { class: 'dot' }), S.live ? 'live' : 'connecting…']));

    $('q-base').textContent = base;
    $('q-id').textContent = st.clientId;
    $('q-secret').textContent = st.clientSecret === null ? '(set at start)' : st.clientSecret;
    // One member a line inside the single quotes: still one shell word and valid JSON, and readable in a narrow card.
    var members = [['client_id', st.clientId], ['client_secret', st.clientSecret === null ? '<client secret>' : st.clientSecret], ['grant_type', 'client_credentials']];
    var body = members.map(function (m) { return JSON.stringify(m[0]) + ': ' + JSON.stringify(m[1]).replace(/'/g, "'\\''"); });
    $('curl-token').textContent = 'export RDX_ACCESS_TOKEN=$(curl -s -X POST ' + shq(base + '/oauth2/token') + ' \\\n' +
      "  -H 'content-type: application/json' \\\n  -d '{" + body.join(',\n       ') + "}' \\\n" +
      "  | sed 's/.*access_token\": *\"//;s/\".*//')";
    $('curl-list').textContent = 'curl -s ' + shq(base + '/ats/job-offers') + ' \\\n  -H "authorization: Bearer $RDX_ACCESS_TOKEN"';

    if (!$('data-form').contains(document.activeElement)) {
      $('d-seed').value = st.seed;
      $('d-records').value = st.records;
    }
    var counts = clear($('d-counts'));
    [['jobOffers', 'ATS job offers'], ['applicationSteps', 'Application steps'], ['jobboardActivities', 'Jobboard activities'], ['jobboardJobOffers', 'Jobboard job offers'], ['users', 'Users']].forEach(function (c) {
      counts.appendChild(h('dt', { text: c[1] }));
      counts.appendChild(h('dd', { text: fmt(st.counts[c[0]] || 0) }));
    });
    if (!$('chaos-form').contains(document.activeElement)) {
      $('c-latency').value = st.chaos.latency.join('; ');
      $('c-error').value = st.chaos.errorRate ? String(Math.round(st.chaos.errorRate * 10000) / 100) : '';
      $('c-drop').value = st.chaos.dropRate ? String(Math.round(st.chaos.dropRate * 10000) / 100) : '';
      $('c-seed').value = st.chaos.seed;
    }
    $('c-now').textContent = '';
    $('c-now').appendChild(document.createTextNode('Now: '));
    $('c-now').appendChild(h('b', { text: st.chaos.active ? st.chaos.text : 'off' }));
    $('p-count').textContent = String(st.personas.length);
    renderRun(st.run);
    renderResourceButtons();
  }

  function loadState() {
    return api('GET', 'state').then(function (r) {
      if (!r.ok) return false;
      S.state = r.body.data[0];
      renderState();
      return true;
    });
  }
  var stateTimer = null;
  function refreshSoon() {
    clearTimeout(stateTimer);
    stateTimer = setTimeout(function () {
      loadState();
      if (S.tab === 'personas') loadPersonas();
      if (S.tab === 'records') loadRecords();
    }, 120);
  }

  function renderRun(run) {
    var box = $('verdict');
    var btn = $('run-btn');
    clear(box);
    box.className = 'verdict';
    btn.disabled = !!(run && run.state === 'running');
    btn.textContent = run && run.state === 'running' ? 'Running…' : 'Run conformance';
    if (!run) {
      box.appendChild(h('div', { class: 'why muted', text: 'No run yet. The verdict appears here, with a link to the full report.' }));
      return;
    }
    var under = run.personas.length ? 'with ' + run.personas.join(', ') : 'with no persona';
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
    var c = run.counts;
    var v = c.byVerdict;
    var should = (c.byLevel.SHOULD && (c.byLevel.SHOULD.warn || 0)) || 0;
    box.className = run.conformant ? 'verdict pass' : 'verdict fail';
    box.setAttribute('data-verdict', run.conformant ? 'conformant' : 'not-conformant');
    box.appendChild(h('div', { class: 'word', id: 'verdict-word', text: run.conformant ? 'CONFORMANT' : 'NOT CONFORMANT' }));
    var why = run.conformant
      ? 'Every MUST case passed, ' + under + '.'
      : plural(c.mustFailures, 'MUST failure') + (c.errors ? ', ' + plural(c.errors, 'case') + ' without an answer' : '') + ', ' + under + '.';
    box.appendChild(h('div', { class: 'why', text: why }));
    var stats = h('div', { class: 'stats' });
    function stat(n, label, cls) { stats.appendChild(h('div', { class: 'stat ' + (n ? cls : '') }, [h('b', { text: fmt(n) }), h('span', { text: label })])); }
    stat(v.pass || 0, 'passed', '');
    stat(c.mustFailures, 'MUST failed', 'bad');
    stat(should, 'warnings', 'warn');
    stat(v.observed || 0, 'observed', '');
    stat(v.skip || 0, 'skipped', '');
    stat(c.errors, 'no answer', 'bad');
    box.appendChild(stats);
    if (run.failedClauses && run.failedClauses.length) {
      var list = h('div', { class: 'clauses' }, [h('div', { class: 'lbl', text: 'Failed MUST clauses' })]);
      run.failedClauses.forEach(function (f) {
        var caught = run.breaks.indexOf(f.clause) >= 0;
        list.appendChild(h('div', { class: 'clause', 'data-clause': f.clause }, [
          h('code', { text: f.clause }),
          h('span', {}, [caught ? h('span', { class: 'caught', title: 'An active fault persona breaks this clause on purpose', text: '✓ caught · ' }) : null, plural(f.cases, 'case')])
        ]));
      });
      box.appendChild(list);
    }
    box.appendChild(h('div', { class: 'foot' }, [h('span', { class: 'muted', text: 'Run ' + run.n + ' · ' + plural(c.total, 'case') + ' in ' + (Math.round(run.durationMs / 100) / 10) + ' s' })]));
    if (run.reportPath) {
      if (S.state && S.state.adminTokenRequired) {
        box.appendChild(h('button', { class: 'open', type: 'button', id: 'report-link', text: 'Open the full report →', onclick: function () { openReport(run.n); } }));
      } else {
        box.appendChild(h('a', { class: 'open', id: 'report-link', href: '/__admin/' + run.reportPath, target: '_blank', rel: 'noopener', text: 'Open the full report →' }));
      }
    }
  }
  function openReport(n) {
    api('POST', 'runs/' + n + '/ticket').then(function (r) {
      if (!r.ok) { toast(problem(r), true); return; }
      window.open(r.body.data[0].url, '_blank', 'noopener');
    });
  }
  $('run-btn').addEventListener('click', function () {
    $('run-btn').disabled = true;
    api('POST', 'runs').then(function (r) {
      if (!r.ok) { toast(problem(r), true); loadState(); return; }
      if (S.state) S.state.run = r.body.data[0];
      renderRun(r.body.data[0]);
    });
  });

  /* ---------- data and chaos ---------- */
  $('data-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var body = { seed: Number($('d-seed').value), records: Number($('d-records').value) };
    api('POST', 'reseed', body).then(function (r) { toast(r.ok ? r.body.message : problem(r), !r.ok); if (r.ok) refreshSoon(); });
  });
  $('d-reset').addEventListener('click', function () {
    api('POST', 'reset').then(function (r) { toast(r.ok ? r.body.message : problem(r), !r.ok); if (r.ok) refreshSoon(); });
  });
  function percent(id) {
    var v = $(id).value.trim();
    return v === '' ? 0 : Number(v) / 100;
  }
  $('chaos-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var latency = $('c-latency').value.split(/[;\n]/).map(function (s) { return s.trim(); }).filter(Boolean);
    var body = { latency: latency, errorRate: percent('c-error'), dropRate: percent('c-drop') };
    var seed = $('c-seed').value.trim();
    if (seed !== '') body.seed = Number(seed);
    api('PUT', 'chaos', body).then(function (r) { toast(r.ok ? r.body.message : problem(r), !r.ok); if (r.ok) refreshSoon(); });
  });
  $('c-off').addEventListener('click', function () {
    api('PUT', 'chaos', { latency: [], errorRate: 0, dropRate: 0 }).then(function (r) { toast(r.ok ? 'Chaos off.' : problem(r), !r.ok); if (r.ok) refreshSoon(); });
  });

  /* ---------- copy ---------- */
  document.addEventListener('click', function (e) {
    var btn = e.target.closest && e.target.closest('[data-copy]');
    if (!btn) return;
    var text = $(btn.getAttribute('data-copy')).textContent;
    function done() { var old = btn.textContent; btn.textContent = 'Copied'; setTimeout(function () { btn.textContent = old; }, 1400); }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { fallback(); });
    else fallback();
    function fallback() {
      var range = document.createRange();
      range.selectNodeContents($(btn.getAttribute('data-copy')));
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      try { if (document.execCommand('copy')) done(); } catch (err) { toast('Select the text and copy it.', false); }
    }
  });

  /* ---------- tabs ---------- */
  function showTab(name) {
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
  function statusClass(s) { return s === 0 ? 's0' : 's' + String(s).charAt(0); }
  function statusPill(s) { return h('span', { class: 'st ' + statusClass(s), text: s === 0 ? 'dropped' : String(s) }); }
  function matchesFilter(e) {
    var f = S.journal.filter;
    if (!f) return true;
    return (e.method + ' ' + e.path + ' ' + e.status + ' ' + (e.clientId || '')).toLowerCase().indexOf(f) >= 0;
  }
  function journalRow(e, fresh) {
    var tr = h('tr', { 'data-id': e.id, class: fresh ? 'new' : '' }, [
      h('td', { class: 'mono muted', text: clock(e.at) }),
      h('td', {}, [h('span', { class: 'm ' + e.method, text: e.method })]),
      h('td', { class: 'wide mono', title: e.path, text: e.path }),
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
    var n = $('j-body').children.length;
    $('j-empty').hidden = n > 0;
    $('j-table').hidden = n === 0;
    var keep = S.state ? S.state.journalSize : 500;
    $('j-info').textContent = plural(n, 'request') + ' shown · the simulator keeps the latest ' + fmt(keep);
    $('j-pause').textContent = S.journal.paused ? (S.journal.held.length ? 'Resume (' + fmt(S.journal.held.length) + ' new)' : 'Resume') : 'Pause';
  }
  function addEntries(list, snapshot) {
    var body = $('j-body');
    if (snapshot) { clear(body); S.journal.held = []; }
    if (S.journal.paused && !snapshot) {
      S.journal.held = S.journal.held.concat(list).slice(-MAX_ROWS);
      journalInfo();
      return;
    }
    list.forEach(function (e) { body.insertBefore(journalRow(e, !snapshot), body.firstChild); });
    while (body.children.length > MAX_ROWS) body.removeChild(body.lastChild);
    journalInfo();
  }
  $('j-pause').addEventListener('click', function () {
    S.journal.paused = !S.journal.paused;
    if (!S.journal.paused && S.journal.held.length) { var held = S.journal.held; S.journal.held = []; addEntries(held, false); }
    journalInfo();
  });
  $('j-clear').addEventListener('click', function () { clear($('j-body')); closeJournalDetail(); journalInfo(); });
  $('j-filter').addEventListener('input', function () {
    S.journal.filter = this.value.trim().toLowerCase();
    Array.prototype.forEach.call($('j-body').children, function (tr) { tr.hidden = !matchesFilter(tr.rdx); });
  });
  $('j-body').addEventListener('click', function (e) {
    var tr = e.target.closest('tr');
    if (!tr || !tr.rdx) return;
    Array.prototype.forEach.call($('j-body').querySelectorAll('tr.sel'), function (r) { r.classList.remove('sel'); });
    tr.classList.add('sel');
    S.journal.selected = tr.rdx.id;
    showJournalDetail(tr.rdx);
  });
  function closeJournalDetail() {
    S.journal.selected = null;
    $('j-detail').hidden = true;
    $('j-split').className = 'split';
    Array.prototype.forEach.call($('j-body').querySelectorAll('tr.sel'), function (r) { r.classList.remove('sel'); });
  }
  $('j-close').addEventListener('click', closeJournalDetail);
  function section(title, content) {
    return [h('h3', { text: title }), content];
  }
  function showJournalDetail(sum) {
    $('j-split').className = 'split open';
    $('j-detail').hidden = false;
    var t = clear($('j-dtitle'));
    t.appendChild(h('div', {}, [h('span', { class: 'm ' + sum.method, text: sum.method }), ' ' + sum.path]));
    t.appendChild(h('div', { class: 'meta' }, [statusPill(sum.status), h('span', { text: (Math.round(sum.latencyMs * 10) / 10) + ' ms' }), h('span', { text: clock(sum.at) }),
      h('span', { text: 'client ' + (sum.clientId || '—') }), sum.operationId ? h('span', { text: sum.operationId }) : null]));
    var b = clear($('j-dbody'));
    b.appendChild(h('p', { class: 'muted small', text: 'Loading…' }));
    api('GET', 'journal/' + sum.id).then(function (r) {
      if (S.journal.selected !== sum.id) return;
      clear(b);
      if (!r.ok) { b.appendChild(h('p', { class: 'muted', text: problem(r) })); return; }
      var e = r.body.data[0];
      var dl = h('dl', { class: 'kv' });
      Object.keys(e.requestHeaders).forEach(function (k) { dl.appendChild(h('dt', { text: k })); dl.appendChild(h('dd', { text: e.requestHeaders[k] })); });
      section('Request headers', dl).forEach(function (n) { b.appendChild(n); });
      section('Request body', e.requestBody === null ? h('p', { class: 'muted small', text: 'none' }) : h('pre', { id: 'j-reqbody', text: pretty(e.requestBody) })).forEach(function (n) { b.appendChild(n); });
      section('Response body', e.responseBody === null ? h('p', { class: 'muted small', text: e.status === 0 ? 'none: the connection was closed without an answer' : 'none' }) : h('pre', { id: 'j-resbody', text: pretty(e.responseBody) })).forEach(function (n) { b.appendChild(n); });
      b.appendChild(h('p', { class: 'muted small', text: 'Client secrets, access tokens and credentials are masked (***).' }));
    });
  }

  /* ---------- live events: Server-Sent Events read through fetch, so the admin token can go in a header ---------- */
  function setLive(on) {
    S.live = on;
    var chip = $('live-chip');
    if (chip) { chip.className = on ? 'chip live' : 'chip'; chip.lastChild.textContent = on ? 'live' : 'reconnecting…'; }
  }
  function dispatch(block) {
    var event = 'message';
    var data = '';
    block.split('\n').forEach(function (line) {
      if (line.indexOf('event:') === 0) event = line.slice(6).trim();
      else if (line.indexOf('data:') === 0) data += line.slice(5).trim();
    });
    if (!data) return;
    var msg;
    try { msg = JSON.parse(data); } catch (e) { return; }
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
    var ctrl = new AbortController();
    S.events.ctrl = ctrl;
    var headers = { accept: 'text/event-stream' };
    if (S.token) headers['x-rdx-admin-token'] = S.token;
    fetch(API + 'events', { headers: headers, cache: 'no-store', signal: ctrl.signal }).then(function (res) {
      if (res.status === 401) { showLogin(''); return; }
      if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
      S.events.failures = 0;
      setLive(true);
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) throw new Error('stream ended');
          buffer += decoder.decode(r.value, { stream: true }).replace(/\r/g, '');
          for (var i = buffer.indexOf('\n\n'), n = 0; i >= 0 && n < 10000; i = buffer.indexOf('\n\n'), n++) {
            var block = buffer.slice(0, i);
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
      S.events.timer = setTimeout(function () { if (!S.events.stopped) { loadState(); connectEvents(); } }, Math.min(10000, 500 * S.events.failures));
    });
  }

  /* ---------- records ---------- */
  function resourceOf(id) { return RESOURCES.filter(function (r) { return r.id === id; })[0]; }
  function renderResourceButtons() {
    var seg = clear($('r-seg'));
    RESOURCES.forEach(function (r) {
      var n = r.count && S.state ? S.state.counts[r.count] : null;
      seg.appendChild(h('button', { type: 'button', 'data-resource': r.id, 'aria-pressed': String(r.id === S.records.resource), onclick: function () { go(r.id, ''); } },
        [r.label, n === null ? null : h('span', { class: 'n', text: fmt(n) })]));
    });
  }
  function go(resource, ref) {
    S.records.resource = resource;
    S.records.ref = ref;
    S.records.page = 1;
    S.records.q = '';
    S.records.selected = null;
    $('r-search').value = '';
    if (S.tab !== 'records') showTab('records'); else loadRecords();
    renderResourceButtons();
  }
  var searchTimer = null;
  $('r-search').addEventListener('input', function () {
    var v = this.value;
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () { S.records.q = v; S.records.page = 1; loadRecords(); }, 250);
  });
  $('r-prev').addEventListener('click', function () { if (S.records.page > 1) { S.records.page -= 1; loadRecords(); } });
  $('r-next').addEventListener('click', function () { S.records.page += 1; loadRecords(); });
  $('r-close').addEventListener('click', function () { S.records.selected = null; $('r-detail').hidden = true; $('r-split').className = 'split'; markRecord(); });

  function refLink(ref, exists) {
    if (!exists) return h('span', { class: 'mono', title: 'No ATS job offer has this reference', text: ref });
    return h('button', { type: 'button', class: 'btn link mono', title: 'Show this job offer', text: ref, onclick: function (e) { e.stopPropagation(); go('job-offers', ref); } });
  }
  var LINKS = [['attributes', 'attributes', 'Attributes'], ['application-steps', 'applicationSteps', 'Steps'], ['jobboard-activities', 'jobboardActivities', 'Activities'], ['jobboard-job-offers', 'jobboardJobOffers', 'Jobboard']];
  function linkCell(ref, resource, n) {
    if (!n) return h('td', { class: 'num' }, [h('span', { class: 'zero', text: '0' })]);
    return h('td', { class: 'num' }, [h('button', { type: 'button', class: 'btn link', 'data-link': resource, title: 'Show them', text: fmt(n), onclick: function (e) { e.stopPropagation(); go(resource, ref); } })]);
  }
  function loadRecords() {
    var r = S.records;
    var res = resourceOf(r.resource);
    var seq = ++r.seq;
    var qs = 'page=' + r.page + '&size=' + r.size + (r.q ? '&q=' + encodeURIComponent(r.q) : '') + (r.ref ? '&ref=' + encodeURIComponent(r.ref) : '');
    var chip = clear($('r-ref'));
    if (r.ref) {
      chip.hidden = false;
      chip.appendChild(h('span', { class: 'filter' }, ['job offer ' + r.ref, h('button', { type: 'button', class: 'x', title: 'Show all', 'aria-label': 'Show all', text: '×', onclick: function () { go(r.resource, ''); } })]));
    } else chip.hidden = true;
    api('GET', 'records/' + res.id + '?' + qs).then(function (resp) {
      if (seq !== r.seq) return;
      var head = clear($('r-head'));
      var body = clear($('r-body'));
      if (!resp.ok) { $('r-info').textContent = problem(resp); return; }
      var meta = resp.body.meta;
      r.page = meta.page;
      var cols = res.cols.slice();
      var tr = h('tr');
      cols.forEach(function (c) { tr.appendChild(h('th', { text: c[1] })); });
      if (res.links) LINKS.forEach(function (l) { tr.appendChild(h('th', { class: 'num', text: l[2] })); });
      head.appendChild(tr);
      resp.body.data.forEach(function (item, i) {
        var row = h('tr', { 'data-index': i });
        cols.forEach(function (c) {
          var v = item[c[0]];
          var cls = c[2];
          if (cls === 'ref' && typeof v === 'string') {
            var exists = res.id === 'job-offers' ? false : !!(meta.links[v] && meta.links[v].jobOffer);
            row.appendChild(h('td', { class: 'mono' }, [res.id === 'job-offers' ? h('span', { class: 'mono', text: v }) : refLink(v, exists)]));
          } else {
            var text = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
            row.appendChild(h('td', { class: cls, title: text.length > 40 ? text : null, text: text }));
          }
        });
        if (res.links) LINKS.forEach(function (l) { row.appendChild(linkCell(item.reference, l[0], (meta.links[item.reference] || {})[l[1]])); });
        row.rdx = item;
        row.rdxLinks = meta.links;
        body.appendChild(row);
      });
      $('r-empty').hidden = resp.body.data.length > 0;
      $('r-info').textContent = plural(meta.total, 'record') + (meta.partial ? ' (search stopped early: narrow it)' : '');
      $('r-page').textContent = 'Page ' + fmt(meta.page) + ' of ' + fmt(meta.pages);
      $('r-prev').disabled = meta.page <= 1;
      $('r-next').disabled = meta.page >= meta.pages;
      markRecord();
    });
  }
  function markRecord() {
    Array.prototype.forEach.call($('r-body').children, function (tr) { tr.classList.toggle('sel', S.records.selected !== null && tr.rdx === S.records.selected); });
  }
  $('r-body').addEventListener('click', function (e) {
    var tr = e.target.closest('tr');
    if (!tr || !tr.rdx) return;
    S.records.selected = tr.rdx;
    markRecord();
    var res = resourceOf(S.records.resource);
    $('r-split').className = 'split open';
    $('r-detail').hidden = false;
    var title = res.ref && tr.rdx[res.ref] ? res.label + ' · ' + tr.rdx[res.ref] : res.label + (tr.rdx.id !== undefined ? ' · ' + tr.rdx.id : tr.rdx.mail ? ' · ' + tr.rdx.mail : '');
    $('r-dtitle').textContent = title;
    var b = clear($('r-dbody'));
    var ref = res.ref ? tr.rdx[res.ref] : null;
    var links = (tr.rdxLinks || {})[ref];
    if (ref && links) {
      var related = h('div', { class: 'related' });
      if (res.id === 'job-offers') {
        LINKS.forEach(function (l) {
          if (links[l[1]]) related.appendChild(h('button', { type: 'button', class: 'btn', text: l[2] + ' (' + fmt(links[l[1]]) + ')', onclick: function () { go(l[0], ref); } }));
        });
        if (!related.firstChild) related.appendChild(h('span', { class: 'muted small', text: 'Nothing links to this job offer.' }));
      } else if (links.jobOffer) {
        related.appendChild(h('button', { type: 'button', class: 'btn', text: 'Job offer ' + ref, onclick: function () { go('job-offers', ref); } }));
      } else related.appendChild(h('span', { class: 'muted small', text: 'No ATS job offer has the reference ' + ref + '.' }));
      b.appendChild(h('h3', { text: 'Linked' }));
      b.appendChild(related);
    }
    b.appendChild(h('h3', { text: 'Record' }));
    b.appendChild(h('pre', { text: JSON.stringify(tr.rdx, null, 2) }));
  });

  /* ---------- personas ---------- */
  function loadPersonas() {
    return api('GET', 'personas').then(function (r) {
      if (!r.ok) return;
      S.personas = r.body.data;
      renderPersonas();
    });
  }
  function activeNames() {
    var active = S.state ? S.state.personas.map(function (p) { return p.name; }) : [];
    S.personas.forEach(function (p) { if (p.active && active.indexOf(p.name) < 0) active.push(p.name); });
    return active;
  }
  function setPersona(name, on) {
    var names = activeNames().filter(function (n) { return n !== name; });
    if (on) names.push(name);
    api('PUT', 'personas', { active: names }).then(function (r) {
      toast(r.ok ? r.body.message : problem(r), !r.ok);
      if (r.ok) { S.personas = r.body.data; renderPersonas(); loadState(); }
    });
  }
  function renderPersonas() {
    var list = clear($('p-list'));
    var f = S.personaFilter;
    var shown = S.personas.filter(function (p) {
      return !f || (p.name + ' ' + p.description + ' ' + p.breaks.join(' ') + ' ' + p.interprets.join(' ')).toLowerCase().indexOf(f) >= 0;
    });
    var on = S.personas.filter(function (p) { return p.active; }).length;
    $('p-info').textContent = on ? plural(on, 'persona') + ' on' : 'None on: the simulator follows the spec and its defaults.';
    $('p-off').disabled = on === 0;
    [['fault', 'Faults', 'Break the spec on purpose: a conformance run should turn red.'], ['variant', 'Legal variants', 'Read an open point another legal way: a run should stay conformant.']].forEach(function (g) {
      var group = shown.filter(function (p) { return p.kind === g[0]; });
      if (!group.length) return;
      list.appendChild(h('div', { class: 'pgroup' }, [h('h3', { text: g[1] + ' (' + group.length + ')' }), h('p', { text: g[2] })]));
      group.forEach(function (p) {
        var id = 'persona-' + p.name;
        var box = h('input', { type: 'checkbox', class: 'switch', id: id, role: 'switch', 'data-persona': p.name, 'aria-label': p.name });
        box.checked = p.active;
        box.addEventListener('change', function () { setPersona(p.name, box.checked); });
        var tags = p.breaks.map(function (c) { return h('span', { class: 'tag', title: 'breaks ' + c, text: c }); })
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
  $('p-filter').addEventListener('input', function () { S.personaFilter = this.value.trim().toLowerCase(); renderPersonas(); });
  $('p-off').addEventListener('click', function () {
    api('PUT', 'personas', { active: [] }).then(function (r) {
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
})();
`;

const MARKUP = String.raw`
<header class="top">
  <div class="brand">
    <div class="mark" aria-hidden="true">RDX</div>
    <div>
      <h1>RDX reference simulator</h1>
      <div class="base" id="h-base">…</div>
    </div>
  </div>
  <div class="chips" id="h-chips"></div>
</header>
<div class="layout">
  <aside>
    <section class="card" aria-labelledby="run-h">
      <h2 id="run-h">Conformance</h2>
      <p class="lead">Runs every suite of the harness against this simulator, as it is set up now: personas and chaos included.</p>
      <button class="btn primary big" id="run-btn" type="button">Run conformance</button>
      <div class="verdict" id="verdict" aria-live="polite"></div>
    </section>
    <section class="card" aria-labelledby="quick-h">
      <h2 id="quick-h">Quick start</h2>
      <dl class="kv">
        <dt>Base URL</dt><dd id="q-base"></dd>
        <dt>Client id</dt><dd id="q-id"></dd>
        <dt>Client secret</dt><dd id="q-secret"></dd>
      </dl>
      <div class="snippet">
        <div class="snippet-h"><span>1 · Get a token</span><button class="btn copy" type="button" data-copy="curl-token">Copy</button></div>
        <pre class="code" id="curl-token"></pre>
      </div>
      <div class="snippet">
        <div class="snippet-h"><span>2 · List ATS job offers</span><button class="btn copy" type="button" data-copy="curl-list">Copy</button></div>
        <pre class="code" id="curl-list"></pre>
      </div>
    </section>
    <section class="card" aria-labelledby="data-h">
      <h2 id="data-h">Data</h2>
      <form id="data-form" class="row" novalidate>
        <label class="field"><span>Seed</span><input id="d-seed" type="number" min="0" step="1" inputmode="numeric"></label>
        <label class="field"><span>Records</span><input id="d-records" type="number" min="0" step="1" inputmode="numeric"></label>
        <button class="btn" type="submit" id="d-reseed">Reseed</button>
      </form>
      <dl class="counts" id="d-counts"></dl>
      <p class="now"><button class="btn" type="button" id="d-reset">Reset to the seed data</button> <span class="muted small">also empties the journal</span></p>
    </section>
    <section class="card" aria-labelledby="chaos-h">
      <h2 id="chaos-h">Latency &amp; chaos</h2>
      <form id="chaos-form" novalidate>
        <div class="row">
          <label class="field"><span>Latency (ms)</span><input id="c-latency" type="text" placeholder="20-80; GET /ats/job-offers=300" autocomplete="off" spellcheck="false"></label>
        </div>
        <div class="row">
          <label class="field"><span>503 errors %</span><input id="c-error" type="number" min="0" max="100" step="any" placeholder="0"></label>
          <label class="field"><span>Dropped %</span><input id="c-drop" type="number" min="0" max="100" step="any" placeholder="0"></label>
          <label class="field"><span>Seed</span><input id="c-seed" type="number" min="0" step="1"></label>
        </div>
        <div class="row">
          <button class="btn primary" type="submit" id="c-apply">Apply</button>
          <button class="btn" type="button" id="c-off">Turn off</button>
        </div>
      </form>
      <p class="now" id="c-now"></p>
    </section>
  </aside>
  <section class="card panel-card" aria-label="Journal, records and personas">
    <div class="tabs" role="tablist">
      <button class="tab" role="tab" id="tab-journal" aria-selected="true" type="button">Live journal</button>
      <button class="tab" role="tab" id="tab-records" aria-selected="false" type="button">Records</button>
      <button class="tab" role="tab" id="tab-personas" aria-selected="false" type="button">Personas<span class="n" id="p-count">0</span></button>
    </div>
    <div class="panel" id="panel-journal" role="tabpanel">
      <div class="toolbar">
        <input class="search" id="j-filter" type="search" placeholder="Filter by method, path, status or client" aria-label="Filter the journal">
        <button class="btn" type="button" id="j-pause">Pause</button>
        <button class="btn" type="button" id="j-clear">Clear view</button>
        <span class="info" id="j-info"></span>
      </div>
      <div class="split" id="j-split">
        <div class="scroll">
          <table class="grid" id="j-table" hidden>
            <thead><tr><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th>Latency</th><th>Client</th></tr></thead>
            <tbody id="j-body"></tbody>
          </table>
          <div class="empty" id="j-empty"><b>No requests yet</b>Requests to the API appear here as they arrive. Try the quick start on the left, or run conformance.</div>
        </div>
        <div class="detail" id="j-detail" hidden>
          <div class="detail-h"><div class="t" id="j-dtitle"></div><button class="x" type="button" id="j-close" aria-label="Close">×</button></div>
          <div class="detail-b" id="j-dbody"></div>
        </div>
      </div>
    </div>
    <div class="panel" id="panel-records" role="tabpanel" hidden>
      <div class="toolbar">
        <div class="seg" id="r-seg"></div>
      </div>
      <div class="toolbar">
        <input class="search" id="r-search" type="search" placeholder="Search any field" aria-label="Search the records">
        <span id="r-ref" hidden></span>
        <span class="info" id="r-info"></span>
      </div>
      <div class="split" id="r-split">
        <div class="scroll">
          <table class="grid" id="r-table"><thead id="r-head"></thead><tbody id="r-body"></tbody></table>
          <div class="empty" id="r-empty" hidden><b>Nothing here</b>No record matches.</div>
        </div>
        <div class="detail" id="r-detail" hidden>
          <div class="detail-h"><div class="t" id="r-dtitle"></div><button class="x" type="button" id="r-close" aria-label="Close">×</button></div>
          <div class="detail-b" id="r-dbody"></div>
        </div>
      </div>
      <div class="pager">
        <button class="btn" type="button" id="r-prev">← Previous</button>
        <span id="r-page"></span>
        <button class="btn" type="button" id="r-next">Next →</button>
      </div>
    </div>
    <div class="panel" id="panel-personas" role="tabpanel" hidden>
      <div class="toolbar">
        <input class="search" id="p-filter" type="search" placeholder="Find a persona or a clause" aria-label="Find a persona">
        <button class="btn" type="button" id="p-off">Switch all off</button>
        <span class="info" id="p-info"></span>
      </div>
      <div class="scroll plist" id="p-list"></div>
    </div>
  </section>
</div>
<form class="login" id="login" hidden>
  <div>
    <h2>Admin token</h2>
    <p class="muted">This dashboard needs the admin token: the one printed when the simulator started, or given with --admin-token. It is sent as a header and kept for this tab only.</p>
    <label class="field"><span>Token</span><input id="login-token" type="password" autocomplete="off" spellcheck="false"></label>
    <p class="err" id="login-err" role="alert"></p>
    <button class="btn primary" type="submit">Open the dashboard</button>
  </div>
</form>
<div class="toast" id="toast" role="status" hidden></div>
`;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** Served in a header with the page: only the page's own style and script, and requests to its own origin. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${sha256(SCRIPT)}'`,
  `style-src 'sha256-${sha256(STYLE)}'`,
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Served with a run's report.html: the report's own meta policy pins its script and style by hash; this one adds
 * what a meta policy cannot (no framing, a sandbox without the dashboard's origin, so the report cannot use the
 * admin API).
 */
export const REPORT_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  'sandbox allow-scripts allow-popups allow-modals',
].join('; ');

let page: string | undefined;

export function dashboardPage(): string {
  page ??= `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>RDX simulator · dashboard</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${MARKUP}
<script>${SCRIPT}</script>
</body>
</html>
`;
  return page;
}
