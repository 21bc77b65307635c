// The dashboard's script, bundled by scripts/bundle.mjs into one inline script whose hash the page's
// Content-Security-Policy pins (page.ts). This entry wires the views together (one module each, beside it): the
// login form, the tabs, the copy buttons, and the start. Every piece of data goes into the page with textContent,
// never as HTML.
import { api, keepToken, problem, session } from './api.js';
import { $, input, toast } from './dom.js';
import { connectEvents, stopEvents } from './events.js';
import { journalInfo } from './journal.js';
import { loadState } from './overview.js';
import { TABS, showTab } from './page.js';
import { loadPersonas } from './personas.js';
import './records.js';

/* ---------- login (only when the simulator requires the admin token) ---------- */
function showLogin(message: string): void {
  stopEvents();
  $('login').hidden = false;
  $('login-err').textContent = message;
  $('login-token').focus();
}
session.unauthorized = function () { showLogin(''); };
$('login').addEventListener('submit', function (e) {
  e.preventDefault();
  session.token = input('login-token').value.trim();
  api('GET', 'state').then(function (r) {
    if (!r.ok) { $('login-err').textContent = r.status === 401 ? 'That is not the admin token.' : problem(r); return; }
    keepToken(session.token);
    $('login').hidden = true;
    input('login-token').value = '';
    start();
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
TABS.forEach(function (t) {
  $('tab-' + t).addEventListener('click', function () { showTab(t); });
});

function start(): void {
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
