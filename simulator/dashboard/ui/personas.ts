// The Personas tab: the fault personas and legal variants, each switched on or off here (through the admin service).
import type { PersonaView } from '../../admin/wire.js';
import { api, problem } from './api.js';
import { $, button, clear, h, input, plural, toast } from './dom.js';
import { loadState } from './overview.js';
import { loaders, page } from './page.js';

const state = { personas: [] as PersonaView[], filter: '' };

export function loadPersonas(): Promise<void> {
  return api<PersonaView>('GET', 'personas').then(function (r) {
    if (!r.ok) return;
    state.personas = r.body.data;
    renderPersonas();
  });
}
function activeNames(): string[] {
  const active = page.state ? page.state.personas.map(function (p) { return p.name; }) : [];
  state.personas.forEach(function (p) { if (p.active && active.indexOf(p.name) < 0) active.push(p.name); });
  return active;
}
function setPersona(name: string, on: boolean): void {
  const names = activeNames().filter(function (n) { return n !== name; });
  if (on) names.push(name);
  api<PersonaView>('PUT', 'personas', { active: names }).then(function (r) {
    toast(r.ok ? r.body.message : problem(r), !r.ok);
    if (r.ok) { state.personas = r.body.data; renderPersonas(); loadState(); }
  });
}
function renderPersonas(): void {
  const list = clear($('p-list'));
  const f = state.filter;
  const shown = state.personas.filter(function (p) {
    return !f || (p.name + ' ' + p.description + ' ' + p.breaks.join(' ') + ' ' + p.interprets.join(' ')).toLowerCase().indexOf(f) >= 0;
  });
  const on = state.personas.filter(function (p) { return p.active; }).length;
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
input('p-filter').addEventListener('input', function (this: HTMLInputElement) { state.filter = this.value.trim().toLowerCase(); renderPersonas(); });
$('p-off').addEventListener('click', function () {
  api<PersonaView>('PUT', 'personas', { active: [] }).then(function (r) {
    toast(r.ok ? r.body.message : problem(r), !r.ok);
    if (r.ok) { state.personas = r.body.data; renderPersonas(); loadState(); }
  });
});

loaders['personas'] = loadPersonas;
