// The small text builders every part of report.html uses: escaping, verdict badges, anchors, counts.
import { codePointName, replaceInvisible } from '../core/terminal.js';

export const LABEL: Record<string, string> = {
  fail: 'fail', error: 'error', warn: 'warn', 'known-failure': 'known', skip: 'skip', pass: 'pass', observed: 'observed',
};
export const MEANING: Record<string, string> = {
  fail: 'a MUST clause is broken',
  error: 'the target gave no answer: the case could not be judged',
  warn: 'only SHOULD clauses are broken',
  'known-failure': 'a failure listed in the baseline: reported, not counted',
  skip: 'not judged; the reason says why',
  pass: 'every clause judged held',
  observed: 'an open point of the spec: what the implementation does is recorded',
};

export const esc = (value: unknown): string =>
  String(value).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

/** An invisible character of a target's text, shown: its code point in a marked box in place of the character. */
export const invisibleMark = (c: string): string => `<span class="invisible" title="an invisible character the target sent">${codePointName(c)}</span>`;

/**
 * Text a target sent (messages, reasons, values), escaped, isolated in <bdi> so a right-to-left override in it
 * cannot reorder the page's own words around it, with every invisible character (zero-width, bidi, tags) marked.
 */
export const targetText = (value: unknown): string => `<bdi>${replaceInvisible(esc(value), invisibleMark)}</bdi>`;

export const badge = (v: string): string => `<span class="badge v-${esc(v)}" title="${esc(MEANING[v] ?? v)}">${esc(LABEL[v] ?? v)}</span>`;
export const anchor = (prefix: string, id: string): string => `${prefix}-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
// n is escaped too: a count may come from a report file that was crafted (baseline.entries: "<meta …>").
export const plural = (n: number, one: string, many = `${one}s`): string => `${esc(n)} ${n === 1 ? one : many}`;
