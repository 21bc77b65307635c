// The stylesheet and script inlined into report.html. They live apart from the markup, so the page's
// Content-Security-Policy can pin them by hash: nothing else (not even markup a hostile target managed to sneak
// into a response body) can run or style the page. Their sources are ui/report.css and ui/report.ts (type-checked
// and linted), bundled by scripts/bundle.mjs; this module reads the built files.
import { builtAsset } from '../core/assets.js';

export const STYLE = `\n${builtAsset('./ui/report.css', import.meta.url)}`;

export const SCRIPT = `\n${builtAsset('./ui/report.js', import.meta.url)}`;
