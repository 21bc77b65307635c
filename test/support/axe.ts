// Accessibility in the browser tests: axe-core (a dev dependency) run on a page playwright-core has open. Its source
// is evaluated through the DevTools protocol, which a page's Content-Security-Policy does not govern, so report.html
// and the dashboard are checked exactly as they are served. The goal (issue 28): no critical and no serious
// violation; moderate and minor ones are printed so they stay visible.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  /** The CSS selectors of the elements that break the rule (the first few). */
  targets: string[];
}

let source: string | undefined;

/** axe-core's violations on the page as it is now (WCAG 2.x A and AA, and axe's best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  // A string, not a function: this module is type-checked without the DOM library.
  const json = await page.evaluate<string>(`(async () => {
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] });
    return JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => String(n.target)) })));
  })()`);
  return JSON.parse(json) as AxeViolation[];
}

/** The critical and serious violations, one line each ("color-contrast (serious): … at #x, #y"); the rest printed. */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const all = await axeViolations(page);
  const line = (v: AxeViolation): string => `${v.id} (${v.impact ?? 'no impact'}): ${v.help} at ${v.targets.join(', ')}`;
  const lesser = all.filter((v) => v.impact !== 'critical' && v.impact !== 'serious');
  if (lesser.length) console.log(`      axe on ${where}, below serious: ${lesser.map(line).join('; ')}`);
  return all.filter((v) => v.impact === 'critical' || v.impact === 'serious').map(line);
}
