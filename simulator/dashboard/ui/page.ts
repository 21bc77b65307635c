// What the views of the page share: the simulator's state as last loaded, the tab shown, and each tab's loader (the
// records and personas views register theirs), so that a view can switch tabs without importing the others.
import type { DashboardState } from '../../admin/wire.js';
import { $ } from './dom.js';

export const page = { state: null as DashboardState | null, tab: 'journal', live: false };

/** What a tab loads when it is shown or the state changes under it. */
export const loaders: Record<string, () => void> = {};

export const TABS = ['journal', 'records', 'personas'];

export function showTab(name: string): void {
  page.tab = name;
  TABS.forEach(function (t) {
    $('tab-' + t).setAttribute('aria-selected', String(t === name));
    $('panel-' + t).hidden = t !== name;
  });
  const load = loaders[name];
  if (load) load();
}
