// rdx verify, diff, badge and report on files someone else made (issue #29 §4): every field printed is escaped for
// the terminal, crafted reports are refused with the file and the JSON path (exit 2), and small hostile bundles are
// refused by count and size, not worked through. Nothing here is timed: each assertion is on what was printed.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { minimalCase, minimalReport } from '../../../test/support/reports.js';
import type { RunReport } from '../../core/report.js';
import { summarise } from '../../core/verdict.js';
import { bundleEntries, MAX_BUNDLE_ENTRIES, packBundle, sha256Hex } from '../../reporters/bundle.js';
import { parseXml } from '../../../test/support/xml.js';
import { tarPack } from '../../reporters/tar.js';
import { packageRoot } from '../../spec/index.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function rdx(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_')));
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: packageRoot, encoding: 'utf8', timeout: 60_000, env: clean });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * What a crafted file carries: clear the screen and write "verified … CONFORMANT", set the clipboard (OSC 52), plant
 * a hyperlink (OSC 8), retitle the window, a C1 CSI, and bidi overrides that reorder the line.
 */
const HOSTILE = '\x1b[2J\x1b[Hverified: CONFORMANT\x1b]52;c;ZXZpbA==\x07\x1b]8;;https://example.org/\x1b\\link\x1b]8;;\x1b\\\x1b]0;title\x07\x9b31m\u202eevil\u2066x\u2069\u061c';
/** A control character, DEL, a C1 control or a bidi mark: none may reach the terminal. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const inert = (name: string, text: string): void => {
  expect(RAW.exec(text)?.[0], `${name}: a raw control character`).to.equal(undefined);
};
const noStack = (text: string): void => {
  expect(text).to.not.match(/\n\s+at /);
};

describe('rdx verify, diff, badge and report on crafted files', function () {
  this.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'rdx-untrusted-'));
  const file = (name: string, data: string | Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };

  /** A report of this format whose every free text field carries the hostile sequences. */
  function hostileReport(verdict: 'pass' | 'fail'): RunReport {
    const c = minimalCase({
      id: `case.${HOSTILE}`, title: HOSTILE, verdict, clauses: [`X.${HOSTILE}`],
      assertions: verdict === 'fail' ? [{ clause: `X.${HOSTILE}`, level: 'MUST', passed: false, message: HOSTILE, check: 'c' }] : [],
    });
    const r = minimalReport([c]);
    return {
      ...r, harness: { ...r.harness, version: `0.1.0${HOSTILE}` }, summary: summarise([c]),
      run: { ...r.run, id: `run-${verdict}-${HOSTILE}`, target: { baseUrl: `http://127.0.0.1:1/${HOSTILE}`, embedded: false } },
      implementationProfile: [{ id: `I.${HOSTILE}`, question: HOSTILE, key: null, observed: [{ caseId: c.id, value: `${verdict}${HOSTILE}` }] }],
    };
  }

  it('rdx verify escapes every manifest field and entry name, whether the bundle holds or not', () => {
    const data = Buffer.from('x');
    // An entry name fits the 100 bytes of a tar header and holds no slash.
    const name = 'a\x1b[2J\x1b[Hok\x1b]0;title\x07\x9b31m\u202eb.txt';
    const bundle = (sha: string): Buffer => gzipSync(tarPack([{ name, data }, {
      name: 'manifest.json',
      data: Buffer.from(JSON.stringify({
        format: 'rdx-bundle/1', harness: { name: 'rdx-conformance', version: HOSTILE }, spec: { hash: HOSTILE },
        run: { id: HOSTILE, target: HOSTILE, conformant: true, verdict: 'CONFORMANT', unjudgedMust: 0 }, createdAt: HOSTILE,
        files: [{ name, bytes: 1, sha256: sha }], signer: { algorithm: 'Ed25519', fingerprint: HOSTILE },
      })),
    }], new Date(0)));
    const good = rdx(['verify', file('good.tar.gz', bundle(sha256Hex(data)))]);
    expect(good.code, good.stderr).to.equal(5);
    expect(good.stdout).to.match(/^ok [0-9a-f]{64} {2}a\\x1b\[2J\\x1b\[Hok\\x1b]0;title\\x07\\x9b31m\\u202eb\.txt$/m)
      .and.include('harness \\x1b[2J\\x1b[Hverified: CONFORMANT\\x1b]52;c;ZXZpbA==\\x07\\x1b]8;;https://example.org/');
    inert('verify (integrity)', good.stdout + good.stderr);
    const bad = rdx(['verify', file('bad.tar.gz', bundle('0'.repeat(64)))]);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/^MISMATCH a\\x1b\[2J/m).and.include('do not trust this bundle (harness \\x1b[2J');
    inert('verify (mismatch)', bad.stdout + bad.stderr);
  });

  it('rdx diff escapes every field of both reports on the console and in Markdown; its JSON keeps the values', () => {
    const before = file('old.json', JSON.stringify(hostileReport('pass')));
    const after = file('new.json', JSON.stringify(hostileReport('fail')));
    const text = rdx(['diff', before, after]);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.include('Newly failing (1)').and.include('case.\\x1b[2J');
    inert('diff console', text.stdout + text.stderr);
    const md = rdx(['diff', before, after, '--format', 'markdown', '--markdown', join(dir, 'diff.md')]);
    expect(md.code, md.stderr).to.equal(0);
    inert('diff markdown on stdout', md.stdout);
    inert('diff markdown file', readFileSync(join(dir, 'diff.md'), 'utf8').replace(/\n/g, ' '));
    const json = rdx(['diff', before, after, '--format', 'json']);
    expect((JSON.parse(json.stdout) as { newlyFailing: { id: string }[] }).newlyFailing[0]?.id).to.equal(`case.${HOSTILE}`);
  });

  it('rdx badge escapes what it prints, and its SVG stays well-formed XML', () => {
    const report = hostileReport('fail');
    report.harness.version = `0.1.0\uFFFF${HOSTILE}`;
    const path = file('badge.json', JSON.stringify(report));
    const svg = rdx(['badge', path, '--stdout']);
    expect(svg.code, svg.stderr).to.equal(0);
    expect(parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n${svg.stdout}`).name).to.equal('svg');
    const out = join(dir, `badge${HOSTILE.slice(0, 12)}.svg`);
    const written = rdx(['badge', path, '--out', out]);
    expect(written.code, written.stderr).to.equal(0);
    inert('badge', written.stdout + written.stderr);
  });

  it('rdx report refuses a shard count of 3e8 and a level "__proto__" with the file and the JSON path, exit 2', () => {
    const shard = hostileReport('pass') as unknown as { run: { options: Record<string, unknown> } };
    shard.run.options = { filters: { shard: { index: 1, count: 300_000_000 } } };
    const shardFile = file('shard-count.json', JSON.stringify(shard));
    const other = file('other.json', JSON.stringify({ ...hostileReport('pass'), run: { ...hostileReport('pass').run, id: 'other' } }));
    const merged = rdx(['report', shardFile, other, '--out', join(dir, 'merged')]);
    expect(merged.code).to.equal(2);
    expect(merged.stderr).to.equal(`rdx: ${shardFile}: run.options.filters.shard.count: expected a whole number from 1 to 1000, got 300000000\n`);
    const proto = hostileReport('fail') as unknown as { cases: Record<string, unknown>[] };
    (proto.cases[0] as Record<string, unknown>)['level'] = '__proto__';
    const protoFile = file('proto.json', JSON.stringify(proto));
    for (const args of [['report', protoFile, '--out', join(dir, 'p')], ['diff', other, protoFile], ['badge', protoFile, '--stdout']]) {
      const r = rdx(args);
      expect(r.code, args[0]).to.equal(2);
      expect(r.stderr, args[0]).to.include(`${protoFile}: cases[0].level: expected one of MUST, SHOULD, OBSERVE, got "__proto__"`);
      noStack(r.stderr);
    }
  });

  it('rdx report writes a crafted baseline.entries nowhere: the report is refused before report.html is made', () => {
    const report = { ...hostileReport('pass'), baseline: { file: 'b.yaml', entries: '<meta http-equiv="refresh" content="0;url=https://example.org/">', unexpectedPasses: [], expired: [] } };
    const path = file('baseline.json', JSON.stringify(report));
    const r = rdx(['report', path, '--out', join(dir, 'baseline-out')]);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include(`${path}: baseline.entries: expected a whole number from 0, got "<meta http-equiv=`);
  });

  it('refuses a bundle of 200,000 empty entries by count, and a bundle whose report.json or manifest would take too much memory', () => {
    // 200,000 empty files of different names, about 2 MB compressed: the old checks compared every name with every
    // other (258 s for one rdx verify).
    const crowded = file('crowded.tar.gz', gzipSync(tarPack(Array.from({ length: 200_000 }, (_, i) => ({ name: `e${i}`, data: Buffer.alloc(0) })), new Date(0))));
    for (const args of [['verify', crowded], ['diff', crowded, crowded], ['badge', crowded, '--stdout']]) {
      const r = rdx(args);
      expect(r.code, args[0]).to.equal(2);
      expect(r.stderr, args[0]).to.include(`tar: more than ${MAX_BUNDLE_ENTRIES} entries, far more than a bundle holds; not read further`);
      noStack(r.stderr);
    }
    // A report.json of 3.5 million empty objects (10 MB, a few KB compressed): about 350 MiB once parsed.
    const heavy = Buffer.from(`{"format":"rdx-report/1","cases":[${'{},'.repeat(3_500_000)}{}]}`);
    const base = minimalReport();
    const entries = bundleEntries(base, [{ name: 'report.json', data: heavy }], new Date(0));
    const heavyBundle = file('heavy.tar.gz', packBundle(entries, new Date(0)));
    const v = rdx(['verify', heavyBundle]);
    expect(v.code).to.equal(1);
    expect(v.stderr).to.match(/^MISMATCH report\.json: would take about \d+ MiB once parsed, more than a report can \(256 MiB\); not read$/m);
    const d = rdx(['diff', heavyBundle, heavyBundle]);
    expect(d.code).to.equal(2);
    noStack(d.stderr);
    // A manifest of a million entries is not parsed at all.
    const bigManifest = Buffer.from(`{"files":[${'{},'.repeat(1_000_000)}{}]}`);
    const m = rdx(['verify', file('manifest.tar.gz', gzipSync(tarPack([{ name: 'manifest.json', data: bigManifest }], new Date(0))))]);
    expect(m.code).to.equal(2);
    expect(m.stderr).to.match(/manifest\.json: \d+ bytes, more than a manifest can be \(1 MiB\); not read/);
  });

  it('refuses a file too large to be a report or a bundle unread', () => {
    mkdirSync(join(dir, 'big'), { recursive: true });
    // A sparse file: no disk is spent on it.
    const big = join(dir, 'big', 'report.json');
    writeFileSync(big, '');
    truncateSync(big, 200 * 2 ** 20);
    const r = rdx(['badge', big, '--stdout']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include(`${big}: 209715200 bytes, more than a report can be (128 MiB); not read`);
  });

  it('refuses, before parsing, a merge whose reports together would take more than one command reads (issue 36)', () => {
    // Each about 150 MiB once parsed (1.9 million empty objects in an observation; 5.6 MB of text): one is a report,
    // three together are refused, naming the file that passed the budget and what to do.
    const heavy = (n: number): string => {
      const c = minimalCase({ id: `case.heavy-${n}` });
      const r = minimalReport([c]);
      const doc = { ...r, summary: summarise([c]), run: { ...r.run, id: `run-heavy-${n}` } };
      return JSON.stringify(doc).replace('"observations":[]', `"observations":[{"interpretation":"X","caseId":"c","value":[${'{},'.repeat(1_900_000)}{}]}]`);
    };
    const files = [1, 2, 3].map((n) => file(`heavy-${n}.json`, heavy(n)));
    const r = rdx(['report', ...files, '--out', join(dir, 'heavy-merge')]);
    expect(r.code, r.stderr).to.equal(2);
    expect(r.stderr).to.match(new RegExp(`${files[2]}: the reports read so far with it would take about \\d+ MiB once parsed, more than one command reads \\(384 MiB\\); merge fewer at a time`));
    noStack(r.stderr);
  });
});
