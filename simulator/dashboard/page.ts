// The dashboard page: one self-contained document (inline style and script, system fonts, no asset, no request
// beyond its own origin). The style and script are pinned by hash in the Content-Security-Policy, so nothing else
// can run or style the page, not even a record or a request body someone managed to fill with markup. The script
// builds every piece of data into the page with textContent, never as HTML. Its sources are ui/page.html, ui/app.css
// and ui/app.ts, bundled by scripts/bundle.mjs; this module reads the built files and hashes what it inlines.
import { createHash } from 'node:crypto';
import { builtAsset } from '../../src/core/assets.js';

interface Built {
  page: string;
  csp: string;
}

let built: Built | undefined;

/** The page with its style and script inlined, and the policy that pins exactly those, read once. */
function dashboard(): Built {
  if (built) return built;
  const style = `\n${builtAsset('./ui/app.css', import.meta.url)}`;
  const script = `\n${builtAsset('./ui/app.js', import.meta.url)}`;
  const template = builtAsset('./ui/page.html', import.meta.url);
  if (!template.includes('<style>/*rdx:style*/</style>') || !template.includes('<script>/*rdx:script*/</script>')) {
    throw new Error('rdx: ui/page.html has lost its style or script placeholder');
  }
  // Replaced by function, so a `$&` in the script stays as it is.
  const page = template.replace('<style>/*rdx:style*/</style>', () => `<style>${style}</style>`)
    .replace('<script>/*rdx:script*/</script>', () => `<script>${script}</script>`);
  built = { page, csp: policy(script, style) };
  return built;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** Served in a header with the page: only the page's own style and script, and requests to its own origin. */
function policy(script: string, style: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${sha256(script)}'`,
    `style-src 'sha256-${sha256(style)}'`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The dashboard's Content-Security-Policy header. */
export function dashboardCsp(): string {
  return dashboard().csp;
}

/**
 * Served with a run's report.html: the report's own meta policy pins its script and style by hash; this one adds
 * what a meta policy cannot (no framing, a sandbox without the dashboard's origin, so the report cannot use the
 * admin API).
 */
export const REPORT_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  'sandbox allow-scripts allow-popups allow-modals',
].join('; ');

export function dashboardPage(): string {
  return dashboard().page;
}
