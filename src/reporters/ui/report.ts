// The report page's script, bundled by scripts/build-ui.mjs into one inline script whose hash report.html's
// Content-Security-Policy pins (html.ts): the filter bar, the matrix's cell links, copy buttons and printing.
// The page works without it; the script only hides and shows what is already there.

function all<T extends Element = HTMLElement>(sel: string, root?: ParentNode): T[] {
  return Array.prototype.slice.call((root || document).querySelectorAll(sel)) as T[];
}
function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

function main(): void {
  const bar = byId('filters');
  if (!bar) return;
  const filterBar = bar;
  filterBar.hidden = false;
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
      window.scrollBy(0, -filterBar.offsetHeight - 8);
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

  all<HTMLButtonElement>('button.copy').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      const text = button.parentNode?.querySelector('pre')?.textContent || '';
      const done = function (): void { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 1500); };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () {});
    });
  });

  // Browsers without ::details-content print closed <details> empty: open them for printing, then restore.
  let closed: HTMLDetailsElement[] = [];
  window.addEventListener('beforeprint', function () {
    closed = all<HTMLDetailsElement>('details:not([open])');
    closed.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () { closed.forEach(function (d) { d.open = false; }); closed = []; });

  if (!fromHash()) apply();
}

main();

export {};
