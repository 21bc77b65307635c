// The report page's script, bundled by scripts/bundle.mjs into one inline script whose hash report.html's
// Content-Security-Policy pins (html.ts): the exchanges (drawn from the embedded data when shown), the filter bar,
// the matrix's cell links, copy buttons and printing. Everything but the exchanges is in the markup already.

import type { PageAssertion, PageData, PageExchange, PageResidue } from '../page-data.js';
import { codePointName, replaceInvisible } from '../../core/terminal.js';
import { replayScript } from '../replay.js';

function all<T extends Element = HTMLElement>(sel: string, root?: ParentNode): T[] {
  return Array.prototype.slice.call((root || document).querySelectorAll(sel)) as T[];
}
function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** The page's data (html-data.ts): gzip + base64 in an inert <script type="application/gzip+base64">, unpacked once. */
function loadData(): Promise<PageData> {
  const packed = byId('rdx-data');
  if (!packed) return Promise.resolve({ exchanges: {}, assertions: {}, residue: [] });
  const binary = atob((packed.textContent || '').trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (typeof DecompressionStream !== 'function') return Promise.reject(new Error('this browser cannot unpack the exchanges (no DecompressionStream); report.json has them'));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text().then(function (text) { return JSON.parse(text) as PageData; });
}

/**
 * Puts text (most of it the target's: headers, bodies, messages) into a node isolated for direction (dir="auto"), so
 * a right-to-left override cannot reorder the page around it, with each invisible character (zero-width, bidi,
 * tags; src/core/terminal.ts) shown as a marked box naming its code point in place of the character.
 */
function put(node: HTMLElement, text: string): HTMLElement {
  node.dir = 'auto';
  const parts: (string | HTMLElement)[] = [];
  let at = 0;
  replaceInvisible(text, function (c, offset) {
    const mark = document.createElement('span');
    mark.className = 'invisible';
    mark.title = 'an invisible character the target sent';
    mark.textContent = codePointName(c);
    parts.push(text.slice(at, offset), mark);
    at = offset + c.length;
    return '';
  });
  node.textContent = '';
  node.append(...parts, text.slice(at));
  return node;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) put(node, text);
  return node;
}

function headersTable(headers: [string, string][] | undefined): HTMLElement | null {
  if (!headers || headers.length === 0) return null;
  const table = el('table', 'headers');
  headers.forEach(function (h) {
    const row = table.insertRow();
    put(row.insertCell(), h[0] + ':');
    put(row.insertCell(), h[1]);
  });
  return table;
}

function bodyNode(text: string | undefined): HTMLElement | null {
  if (text === undefined) return null;
  if (text === '') return el('p', 'muted', '(empty body)');
  // A long body scrolls inside its box: focusable, so a keyboard can scroll it too (axe: scrollable-region-focusable).
  const pre = el('pre', 'body', text);
  pre.tabIndex = 0;
  return pre;
}

function copyButton(button: HTMLButtonElement): void {
  button.hidden = false;
  button.addEventListener('click', function () {
    // data-copy holds the exact text where the shown one marks invisible characters (the regression YAML).
    const text = button.getAttribute('data-copy') ?? (button.parentNode?.querySelector('pre')?.textContent || '');
    const done = function (): void { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 1500); };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () {});
  });
}

/** A block of text to copy (a curl line, a script), with its label and a copy button. */
function copyable(label: string, text: string, scrolls: boolean): HTMLElement {
  const box = el('div', 'curl');
  box.appendChild(el('span', 'label', label));
  const pre = box.appendChild(el('pre'));
  // A long script scrolls inside its box: focusable, so a keyboard can scroll it too.
  if (scrolls) pre.tabIndex = 0;
  pre.appendChild(el('code', undefined, text));
  const button = box.appendChild(el('button', 'copy', 'Copy'));
  button.type = 'button';
  copyButton(button);
  return box;
}

/** The curl script replaying a case's exchanges #0 to #upto (replay.ts), from the curl lines the data holds. */
function scriptNode(id: string, exchanges: PageExchange[], upto: number): HTMLElement | null {
  const steps = exchanges.slice(0, upto + 1);
  if (!steps.length) return null;
  const box = copyable('curl script', replayScript(id, steps), true);
  box.classList.add('script');
  return box;
}

/** The same markup html.ts drew before the exchanges became data, so the stylesheet and print rules apply. */
function exchangeNode(x: PageExchange): HTMLElement {
  const box = el('div', 'exchange');
  box.appendChild(el('div', 'ex-head', x.head));
  const grid = box.appendChild(el('div', 'ex-grid'));
  const request = grid.appendChild(el('div'));
  request.append(el('h5', undefined, 'Request'), el('pre', 'line', x.request));
  const requestHeaders = headersTable(x.requestHeaders);
  if (requestHeaders) request.appendChild(requestHeaders);
  const requestBody = bodyNode(x.requestBody);
  if (requestBody) request.appendChild(requestBody);
  const response = grid.appendChild(el('div'));
  response.appendChild(el('h5', undefined, 'Response'));
  if (x.status !== undefined) {
    response.appendChild(el('pre', 'line', x.status));
    const responseHeaders = headersTable(x.responseHeaders);
    if (responseHeaders) response.appendChild(responseHeaders);
    if (x.note) response.appendChild(el('p', 'muted', x.note));
    const responseBody = bodyNode(x.responseBody);
    if (responseBody) response.appendChild(responseBody);
  } else {
    response.appendChild(el('p', 'transport', 'No answer: ' + (x.transport || '')));
  }
  box.appendChild(copyable('curl', x.curl, false));
  return box;
}

function table(className: string, heads: string[]): { table: HTMLTableElement; body: HTMLTableSectionElement } {
  const t = el('table', className);
  const head = t.createTHead().insertRow();
  heads.forEach(function (h) { head.appendChild(el('th', undefined, h)); });
  return { table: t, body: t.createTBody() };
}

function assertionsNode(list: PageAssertion[], heldOnly: boolean): HTMLElement {
  const t = table('assertions', ['Result', 'Level', 'Clause', 'Message', 'Exchange']);
  list.filter(function (a) { return !heldOnly || a[0] === 1; }).forEach(function (a) {
    const row = t.body.insertRow();
    const result = row.insertCell();
    result.className = a[0] ? 'ok' : 'bad';
    result.textContent = a[0] ? 'held' : 'BROKEN';
    row.insertCell().textContent = a[1];
    const clause = row.insertCell().appendChild(el('code', undefined, a[2]));
    clause.title = a[3];
    put(row.insertCell(), a[4]);
    row.insertCell().textContent = a[5] === null ? '' : '#' + a[5];
  });
  return t.table;
}

function residueNode(list: PageResidue[]): HTMLElement {
  const t = table('ledger', ['Resource', 'Operation', 'Reference', 'Id', 'Created by', 'Created at']);
  list.forEach(function (e) {
    const row = t.body.insertRow();
    row.insertCell().textContent = e[0];
    row.insertCell().appendChild(el('code', undefined, e[1]));
    row.insertCell().appendChild(el('code', undefined, e[2]));
    row.insertCell().textContent = e[3];
    const link = row.insertCell().appendChild(el('a', undefined, e[4]));
    link.href = '#' + e[5];
    row.insertCell().textContent = e[6];
  });
  return t.table;
}

/** What a slot shows, from the data: an exchange, a case's assertions, or the residue ledger. */
function slotContent(data: PageData, slot: Element): HTMLElement | null {
  // The case a slot belongs to is the case element around it (data-id), named once per case in the markup.
  const owner = slot.closest('[data-id]');
  const id = owner ? owner.getAttribute('data-id') || '' : '';
  switch (slot.getAttribute('data-slot')) {
    case 'exchange': {
      const x = (data.exchanges[id] || [])[Number(slot.getAttribute('data-ex'))];
      return x ? exchangeNode(x) : null;
    }
    case 'script':
      return scriptNode(id, data.exchanges[id] || [], Number(slot.getAttribute('data-upto')));
    case 'assertions': {
      const list = data.assertions[id];
      return list ? assertionsNode(list, slot.getAttribute('data-which') === 'held') : null;
    }
    case 'residue':
      return residueNode(data.residue);
    default:
      return null;
  }
}

/** Draws the slots under root that are shown (not inside a closed <details>), or all of them. */
function fillSlots(data: PageData, root: ParentNode, everything: boolean): void {
  all('.slot:not(.filled)', root).forEach(function (slot) {
    const closed = slot.parentElement ? slot.parentElement.closest('details:not([open])') : null;
    if (closed && !everything) return;
    const content = slotContent(data, slot);
    if (!content) return;
    slot.replaceChildren(content);
    slot.classList.add('filled');
  });
}

function slots(): void {
  let data: PageData | null = null;
  loadData().then(function (d) {
    data = d;
    fillSlots(d, document, false);
    document.body.setAttribute('data-slots', 'ready');
  }, function (error: Error) {
    all('.slot').forEach(function (slot) { slot.appendChild(el('p', 'warning', error.message)); });
  });
  // 'toggle' does not bubble: listen in the capture phase for every <details> of the page.
  document.addEventListener('toggle', function (event) {
    const details = event.target;
    if (data && details instanceof HTMLDetailsElement && details.open) fillSlots(data, details, false);
  }, true);
  window.addEventListener('beforeprint', function () { if (data) fillSlots(data, document, true); });
}

/** The sticky filter bar's height, so a heading reached by a link stops below it (scroll-margin-top in report.css). */
function trackBar(bar: HTMLElement): void {
  // Read after the first frame: reading a height while the page loads forces a layout of the whole page.
  const set = function (): void { document.documentElement.style.setProperty('--bar', bar.offsetHeight + 'px'); };
  requestAnimationFrame(set);
  window.addEventListener('resize', set);
}

function main(): void {
  slots();
  const bar = byId('filters');
  if (!bar) return;
  const filterBar = bar;
  filterBar.hidden = false;
  trackBar(filterBar);
  const cases = all('.case');
  const groups = all('.group');
  const shown = byId('shown');
  const cellNote = byId('cell-filter');
  const cellText = byId('cell-text');
  const tag = byId<HTMLSelectElement>('f-tag');
  const endpoint = byId<HTMLSelectElement>('f-endpoint');
  const search = byId<HTMLInputElement>('f-search');
  if (!shown || !cellNote || !cellText || !tag || !endpoint || !search) return;
  const fields = { shown, cellNote, cellText, tag, endpoint, search };
  let cell = '';

  function checked(name: string): string[] {
    return all<HTMLInputElement>('input[name=' + name + ']').filter(function (i) { return i.checked; }).map(function (i) { return i.value; });
  }
  function words(el: Element, key: string): string[] { return (el.getAttribute('data-' + key) || '').split(' '); }

  function apply(): void {
    const verdicts = checked('verdict');
    const levels = checked('level');
    const text = fields.search.value.trim().toLowerCase();
    let visible = 0;
    cases.forEach(function (el) {
      const ok = verdicts.indexOf(el.getAttribute('data-verdict') || '') >= 0
        && levels.indexOf(el.getAttribute('data-level') || '') >= 0
        && (!fields.tag.value || words(el, 'tags').indexOf(fields.tag.value) >= 0)
        && (!fields.endpoint.value || words(el, 'endpoints').indexOf(fields.endpoint.value) >= 0)
        && (!cell || words(el, 'cells').indexOf(cell) >= 0)
        && (!text || (el.getAttribute('data-search') || '').indexOf(text) >= 0);
      el.hidden = !ok;
      if (ok && el.classList.contains('row')) visible++;
    });
    groups.forEach(function (g) { g.hidden = all('.case', g).every(function (el) { return el.hidden; }); });
    all('[data-empty-note]').forEach(function (note) {
      const section = byId(note.getAttribute('data-empty-note') || '');
      note.hidden = !section || all('.case', section).some(function (el) { return !el.hidden; }) || all('.case', section).length === 0;
    });
    fields.shown.textContent = visible + ' of ' + all('.case.row').length + ' cases shown';
    fields.cellNote.hidden = !cell;
  }

  function fromHash(): boolean {
    const m = /^#cell=(\d+):([\w-]+)$/.exec(location.hash);
    if (!m) return false;
    cell = m[1] + ':' + m[2];
    const link = document.querySelector('a[data-cell="' + cell + '"]');
    fields.cellText.textContent = link ? link.getAttribute('data-label') : cell;
    apply();
    const first = cases.filter(function (el) { return !el.hidden; })[0];
    if (first) {
      if (first instanceof HTMLDetailsElement && all('.case.card').every(function (c) { return c.hidden; })) first.open = true;
      first.scrollIntoView({ block: 'start' });
    }
    return true;
  }

  filterBar.addEventListener('change', apply);
  fields.search.addEventListener('input', apply);
  byId('f-problems')?.addEventListener('click', function () {
    all<HTMLInputElement>('input[name=verdict]').forEach(function (i) { i.checked = ['fail', 'error', 'warn', 'known-failure'].indexOf(i.value) >= 0; });
    apply();
  });
  byId('f-reset')?.addEventListener('click', function () {
    all<HTMLInputElement>('#filters input[type=checkbox]').forEach(function (i) { i.checked = true; });
    fields.tag.value = ''; fields.endpoint.value = ''; fields.search.value = ''; cell = '';
    if (/^#cell=/.test(location.hash)) history.replaceState(null, '', location.pathname + location.search);
    apply();
  });
  byId('cell-clear')?.addEventListener('click', function () {
    cell = '';
    history.replaceState(null, '', location.pathname + location.search);
    apply();
  });
  window.addEventListener('hashchange', fromHash);

  all<HTMLButtonElement>('button.copy').forEach(copyButton);

  // Browsers without ::details-content print closed <details> empty: open them for printing, then restore.
  let closed: HTMLDetailsElement[] = [];
  window.addEventListener('beforeprint', function () {
    closed = all<HTMLDetailsElement>('details:not([open])');
    closed.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () { closed.forEach(function (d) { d.open = false; }); closed = []; });

  // Nothing is filtered when the page opens: only the count is written, so loading walks no case and forces no layout.
  if (!fromHash()) fields.shown.textContent = all('.case.row').length + ' of ' + all('.case.row').length + ' cases shown';
}

main();

export {};
