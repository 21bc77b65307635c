// Every relative link of every Markdown file in the packed tarball points at a file the tarball holds: the docs a
// vendor reads in node_modules/rdx-conformance link to nothing that was left out of the package (issue 40 §7).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { packInto } from '../support/package.js';

const run = promisify(execFile);

/** The link targets of a Markdown text: inline links and images, reference definitions, HTML href and src; code left out. */
export function linkTargets(markdown: string): string[] {
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1] as string);
  const defined = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] as string);
  const html = [...text.matchAll(/<(?:a|img|source)\b[^>]*\s(?:href|src)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1] as string);
  return [...inline, ...defined, ...html];
}

/** Where a relative link of `file` points inside the package, or undefined for an absolute URL or an anchor alone. */
export function resolveLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('//')) return undefined;
  const path = decodeURIComponent(target.replace(/[?#].*$/, ''));
  return posix.normalize(posix.join(posix.dirname(file), path)).replace(/\/$/, '');
}

describe('links inside the packed package', function () {
  this.timeout(300_000);
  let folder = '';
  let entries: Set<string>;
  let markdown: string[];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'rdx-links-'));
    const tarball = await packInto(folder);
    const listed = (await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 })).stdout.split('\n').filter(Boolean);
    entries = new Set(listed.map((p) => p.replace(/^package\//, '')));
    markdown = [...entries].filter((p) => p.endsWith('.md'));
    await run('tar', ['-xzf', tarball, '-C', folder, ...markdown.map((p) => `package/${p}`)]);
  });

  after(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('finds the shipped Markdown files, and each relative link of each resolves to a file of the tarball', () => {
    expect(markdown, 'shipped Markdown files').to.include.members(['README.md', 'docs/cli.md']);
    const folders = new Set([...entries].flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdown) {
      for (const target of linkTargets(readFileSync(join(folder, 'package', file), 'utf8'))) {
        const resolved = resolveLink(file, target);
        if (resolved === undefined) continue;
        checked += 1;
        if (!entries.has(resolved) && !folders.has(resolved)) broken.push(`${file}: ${target} (not in the tarball)`);
      }
    }
    expect(broken).to.deep.equal([]);
    expect(checked, 'relative links checked').to.be.above(20);
  });

  it('reads links the way Markdown writes them', () => {
    const text = '[a](docs/cli.md#x) ![i](docs/i.png "t") `[no](code.md)`\n```sh\n[no](fenced.md)\n```\n[ref]: ../SECURITY.md\n<img src="docs/d.png"> [w](https://example.com) [h](#top)';
    expect(linkTargets(text)).to.deep.equal(['docs/cli.md#x', 'docs/i.png', 'https://example.com', '#top', '../SECURITY.md', 'docs/d.png']);
    expect(resolveLink('docs/reliability.md', '../simulator/README.md#speed')).to.equal('simulator/README.md');
    expect(resolveLink('README.md', 'https://example.com/x.md')).to.equal(undefined);
    expect(resolveLink('README.md', '#top')).to.equal(undefined);
  });
});
