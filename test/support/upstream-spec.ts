// The upstream spec's text, for the tests that hold spec/ to it (quotes verbatim, every "not shown" covered).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/spec/index.js';

/** The upstream spec text, when ../shared/spec sits beside the checkout (it does in CI). */
export function upstreamSpecText(): string | undefined {
  const candidates = [
    process.env['RDX_SPEC_FILE'],
    join(packageRoot, '..', 'shared', 'spec', 'recruitment-data-exchange-spec.md'),
  ].filter((p): p is string => typeof p === 'string');
  for (const p of candidates) if (existsSync(p)) return readFileSync(p, 'utf8');
  return undefined;
}
