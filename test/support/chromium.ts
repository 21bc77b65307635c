// What the browser tests share: Debian's Chromium (CI installs it), driven by playwright-core, and the rule that a
// machine without it says why and skips, except under RDX_REQUIRE_CHROMIUM=1 (.ci/run sets it), where it fails:
// CI must run them. RDX_CHROMIUM_PATH names another executable (pointed at a missing file, it shows what a machine
// without Chromium does).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Types only at load: playwright-core (a dev dependency) is imported when a browser is launched, so the tests that
// only ask whether Chromium is there (skipWithoutChromium) and the modules that import them do not load it.
import type { BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env['RDX_CHROMIUM_PATH'] || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the browser tests cannot run here, or undefined. */
export function chromiumUnavailable(path = CHROMIUM): string | undefined {
  return existsSync(path) ? undefined : `${path} is not installed (apt-get install -y chromium, or set RDX_CHROMIUM_PATH)`;
}

/**
 * Skips the calling test or hook, saying why, where Chromium is not installed; under RDX_REQUIRE_CHROMIUM=1 it
 * throws instead, so a CI machine that lost its Chromium fails rather than skipping the browser tests.
 */
export function skipWithoutChromium(test: { skip(): void }, path = CHROMIUM): void {
  const why = chromiumUnavailable(path);
  if (!why) return;
  if (process.env['RDX_REQUIRE_CHROMIUM'] === '1') throw new Error(`the browser tests must run (RDX_REQUIRE_CHROMIUM=1), but ${why}`);
  console.log(`    skipped: ${why}; CI installs it and runs these tests`);
  test.skip();
}

export interface Chromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile folder. */
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile in a temporary folder. */
export async function launchChromium(options: { viewport: { width: number; height: number }; reducedMotion?: 'reduce' }): Promise<Chromium> {
  const { chromium } = await import('playwright-core');
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
