// What the browser tests share: Debian's Chromium (CI installs it), driven by playwright-core, and the rule that a
// machine without it says why and skips.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Skips the calling test or hook, saying why, where Chromium is not installed. */
export function skipWithoutChromium(test: { skip(): void }): void {
  if (existsSync(CHROMIUM)) return;
  console.log(`    skipped: ${CHROMIUM} is not installed (apt-get install -y chromium); CI installs it and runs these tests`);
  test.skip();
}

export interface Chromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile folder. */
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile in a temporary folder. */
export async function launchChromium(options: { viewport: { width: number; height: number }; reducedMotion?: 'reduce' }): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'rdx-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, ...options });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
