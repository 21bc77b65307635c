// The live events: Server-Sent Events read through fetch, so the admin token can go in a header. They carry journal
// entries, and nudges when the simulator's state or a conformance run changes.
import type { JournalEvent, RunEvent } from '../../admin/wire.js';
import { API, session } from './api.js';
import { $, clear, toast } from './dom.js';
import { addEntries, closeJournalDetail, journalInfo } from './journal.js';
import { loadState, refreshSoon } from './overview.js';
import { page } from './page.js';
import { renderRun } from './run-card.js';

const state = { ctrl: null as AbortController | null, failures: 0, stopped: false, timer: undefined as number | undefined };

function setLive(on: boolean): void {
  page.live = on;
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
  // Each event carries its own members: journal the entries, run the run.
  let msg: JournalEvent & RunEvent;
  try { msg = JSON.parse(data) as JournalEvent & RunEvent; } catch { return; }
  if (event === 'journal') addEntries(msg.entries, msg.snapshot);
  else if (event === 'reset') { clear($('j-body')); closeJournalDetail(); journalInfo(); }
  else if (event === 'state') refreshSoon();
  else if (event === 'run') {
    if (page.state) page.state.run = msg.run;
    renderRun(msg.run);
    if (msg.run.state !== 'running') refreshSoon();
  }
}
export function stopEvents(): void {
  state.stopped = true;
  clearTimeout(state.timer);
  if (state.ctrl) state.ctrl.abort();
}
export function connectEvents(): void {
  state.stopped = false;
  const ctrl = new AbortController();
  state.ctrl = ctrl;
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (session.token) headers['x-rdx-admin-token'] = session.token;
  fetch(API + 'events', { headers: headers, cache: 'no-store', signal: ctrl.signal }).then(function (res) {
    if (res.status === 401) { session.unauthorized(); return; }
    if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
    state.failures = 0;
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
    if (state.stopped) return;
    state.failures += 1;
    if (state.failures > 60) { toast('The live journal stopped; reload the page to start it again.', true); return; }
    state.timer = window.setTimeout(function () { if (!state.stopped) { loadState(); connectEvents(); } }, Math.min(10000, 500 * state.failures));
  });
}

