// An SVG badge of a run's verdict in the usual flat look (grey label, coloured message), for a README or a status
// page: "rdx 0.1.0 · spec 3f9a1c2b | CONFORMANT". Text widths are estimated from Verdana's advance widths and pinned
// with textLength, so the text fits whatever font the viewer has.
import type { RunReport, RunVerdict } from '../core/report.js';
import { VERDICT_WORDS } from '../core/verdict.js';
import { escapeXml } from './xml.js';

export const BADGE_COLOURS: Record<RunVerdict, string> = {
  CONFORMANT: '#4c1',
  KNOWN_FAILURES: '#fe7d37',
  INCOMPLETE: '#dfb317',
  NOT_CONFORMANT: '#e05d44',
};

// Verdana 11px advance widths (px) of the characters a badge uses; anything else counts as 7.
const WIDTH: Record<string, number> = {
  ' ': 3.9, '.': 3.9, ',': 3.9, ':': 4.6, '-': 4.6, '·': 4.6, '/': 4.9, '_': 7, '+': 9.2,
  0: 7, 1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 7, 8: 7, 9: 7,
  A: 7.5, B: 7.6, C: 7.7, D: 8.5, E: 7, F: 6.3, G: 8.5, H: 8.3, I: 4.6, J: 5, K: 7.6, L: 6.1, M: 9.3,
  N: 8.3, O: 8.7, P: 6.6, Q: 8.7, R: 7.7, S: 7.5, T: 6.8, U: 8.1, V: 7.5, W: 10.9, X: 7.5, Y: 6.8, Z: 7.5,
  a: 6.6, b: 6.8, c: 5.8, d: 6.8, e: 6.6, f: 3.9, g: 6.8, h: 7, i: 3, j: 3.8, k: 6.5, l: 3, m: 10.7,
  n: 7, o: 6.7, p: 6.8, q: 6.8, r: 4.7, s: 5.7, t: 4.3, u: 7, v: 6.5, w: 9, x: 6.5, y: 6.5, z: 5.8,
};

export function textWidth(text: string): number {
  return [...text].reduce((sum, ch) => sum + (WIDTH[ch] ?? 7), 0);
}

const xml = escapeXml;

/** A flat badge: label on grey, message on colour, a title for screen readers and hover. */
export function flatBadge(label: string, message: string, colour: string, title = `${label}: ${message}`): string {
  const lw = Math.round(textWidth(label) + 10);
  const mw = Math.round(textWidth(message) + 10);
  const w = lw + mw;
  // Coordinates ×10 with scale(.1), as the flat badges do, for sub-pixel text placement.
  const text = (value: string, x: number, width: number): string =>
    `<text aria-hidden="true" x="${x * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${(width - 10) * 10}">${xml(value)}</text>`
    + `<text x="${x * 10}" y="140" transform="scale(.1)" fill="#fff" textLength="${(width - 10) * 10}">${xml(value)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${xml(`${label}: ${message}`)}">`
    + `<title>${xml(title)}</title>`
    + '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>'
    + `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`
    + `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${colour}"/><rect width="${w}" height="20" fill="url(#s)"/></g>`
    + '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">'
    + `${text(label, lw / 2, lw)}${text(message, lw + mw / 2, mw)}</g></svg>\n`;
}

/** The badge of a report: the verdict, the harness version and the spec it was judged against. No target URL. */
export function reportBadge(report: RunReport): string {
  const verdict = report.summary.verdict;
  const label = `rdx ${report.harness.version} · spec ${report.spec.hash.slice(0, 8)}`;
  const title = `RDX conformance: ${VERDICT_WORDS[verdict]}. Harness rdx-conformance ${report.harness.version}, spec sha256 ${report.spec.hash}, run ${report.run.id} (${report.run.startedAt}).`;
  return flatBadge(label, VERDICT_WORDS[verdict], BADGE_COLOURS[verdict], title);
}
