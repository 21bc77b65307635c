import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planCases } from './plan.js';
import { SuiteError, loadSuites, listSuiteFiles, type CaseDef } from './suite.js';
import { readPath } from '../core/paths.js';
import { JSON_BREAKS, resolve, TemplateError, type GenerationContext } from './template.js';
import { createFaker } from '../data/factories.js';
import { verdictOf } from '../core/results.js';

function suiteFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rdx-suite-'));
  const file = join(dir, 'bad.yaml');
  writeFileSync(file, text);
  return file;
}

function problemsOf(text: string): string[] {
  try {
    loadSuites([suiteFile(text)]);
  } catch (error) {
    if (error instanceof SuiteError) return error.problems.map((p) => `${p.line}: ${p.field}: ${p.message}`);
    throw error;
  }
  return [];
}

const okCase = `
  - id: demo.one
    title: A demo case that states its requirement
    level: MUST
    clauses: [ENVELOPE.MESSAGE]
    tier: read-only
    steps:
      - name: list
        operation: listJobOffers
`;

describe('suite loader', () => {
  it('loads every bundled suite file without a problem', () => {
    const cases = loadSuites(listSuiteFiles());
    expect(cases.length).to.be.greaterThan(5);
  });

  it('reports a YAML syntax error with its line', () => {
    const problems = problemsOf('cases:\n  - id: x\n    title: [unclosed\n');
    expect(problems[0]).to.match(/^\d+: \(yaml\): /);
  });

  it('reports a schema problem at the line of the offending field', () => {
    const problems = problemsOf(`cases:${okCase}    colour: red\n`);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^10: \/cases\/0\/colour: unknown field colour/);
  });

  it('reports a bad enum value with the allowed values', () => {
    const problems = problemsOf(`cases:${okCase.replace('read-only', 'dangerous')}`);
    expect(problems.join('\n')).to.match(/^6: \/cases\/0\/tier: must be equal to one of the allowed values: read-only, reversible, irreversible/m);
  });

  it('rejects unknown clauses, operations, prerequisites and duplicate ids', () => {
    const text = `cases:${okCase}${okCase.replace('ENVELOPE.MESSAGE', 'NOPE.NOTHING').replace('listJobOffers', 'listNothing')}`;
    const problems = problemsOf(text.replace('tier: read-only\n    steps', 'tier: read-only\n    requires: [ghost]\n    steps'));
    const all = problems.join('\n');
    expect(all).to.include('duplicate case id');
    expect(all).to.include('unknown clause NOPE.NOTHING');
    expect(all).to.include('unknown operationId listNothing');
    expect(all).to.include('unknown case ghost');
  });

  it('leaves out, in an each copy, a step whose operation the item does not give, and fills the others', () => {
    const file = suiteFile(`cases:
  - id: demo.each
    title: A demo case whose steps depend on the item
    level: MUST
    clauses: [ENVELOPE.MESSAGE]
    tier: read-only
    each:
      target:
        - { id: with-read, operation: listJobOffers, read: getJobOffer, control: { auth: default } }
        - { id: without-read, operation: listJobboardActivities }
    steps:
      - name: call
        operation: "\${each.target.operation}"
        control: "\${each.target.control}"
      - name: read
        operation: "\${each.target.read}"
        params: { id: x }
`);
    const cases = loadSuites([file]);
    expect(cases.map((c) => [c.id, c.steps.map((s) => s.operation)])).to.deep.equal([
      ['demo.each.with-read', ['listJobOffers', 'getJobOffer']],
      ['demo.each.without-read', ['listJobboardActivities']],
    ]);
    expect(cases[0]?.steps[0]?.control).to.deep.equal({ auth: 'default' });
    expect(cases[1]?.steps[0]).to.not.have.property('control');
  });

  it('refuses a wrong-type item of a union field, since the union members are unknown', () => {
    const text = `cases:${okCase}    vars:\n      bad: { $invalid: application-step, wrongType: source }\n`;
    expect(problemsOf(text).join('\n')).to.include('source is a union field');
  });
});

const mk = (id: string, extra: Partial<CaseDef> = {}): CaseDef => ({
  id, title: `case ${id} title`, level: 'MUST', clauses: ['ENVELOPE.MESSAGE'], tags: [], tier: 'read-only', requires: [],
  steps: [{ name: 's', operation: 'listJobOffers' }], file: 'suites/x.yaml', line: 1, endpoints: [3], ...extra,
});

describe('planCases', () => {
  const cases = [
    mk('a'), mk('b', { requires: ['a'], tags: ['batch'] }), mk('c', { level: 'SHOULD', tier: 'reversible' }),
    mk('d', { endpoints: [21], tier: 'irreversible', clauses: ['RECORD.USERS_NESTED'] }),
  ];

  it('keeps file order and pulls in prerequisites of selected cases', () => {
    const plan = planCases(cases, { tags: ['batch'] });
    expect(plan.cases.map((c) => c.id)).to.deep.equal(['a', 'b']);
    expect([...plan.pulledIn]).to.deep.equal(['a']);
  });

  it('filters by level, endpoint, clause family, tier and grep', () => {
    expect(planCases(cases, { levels: ['SHOULD'] }).cases.map((c) => c.id)).to.deep.equal(['c']);
    expect(planCases(cases, { endpoints: [21] }).cases.map((c) => c.id)).to.deep.equal(['d']);
    expect(planCases(cases, { clauses: ['RECORD'] }).cases.map((c) => c.id)).to.deep.equal(['d']);
    expect(planCases(cases, { readOnly: true }).cases.map((c) => c.id)).to.deep.equal(['a', 'b']);
    expect(planCases(cases, { grep: '^c ' }).cases.map((c) => c.id)).to.deep.equal(['c']);
    expect(planCases(cases, { grep: '^c ', invert: true }).cases.map((c) => c.id)).to.deep.equal(['a', 'b', 'd']);
  });

  it('splits into shards that together hold every case exactly once', () => {
    const many = Array.from({ length: 40 }, (_, i) => mk(`case-${i}`));
    const shards = [1, 2, 3].map((index) => planCases(many, { shard: { index, count: 3 } }).cases.map((c) => c.id));
    expect(shards.flat().sort()).to.deep.equal(many.map((c) => c.id).sort());
    expect(shards.every((s) => s.length > 0)).to.equal(true);
  });
});

describe('templates', () => {
  const gen = (): GenerationContext => {
    let n = 0;
    return {
      faker: {} as GenerationContext['faker'],
      factories: { jobOffer: () => ({ publication_at: '2026-01-01T00:00:00Z', title: 'T', reference: 'R' }) },
      runTag: 'rdxtest', next: () => ++n, invalidItems: new WeakSet(), repaired: new WeakMap(), anchor: new Date('2026-06-01T00:00:00Z'),
      jobOfferId: (r) => r,
      dateFilterFormat: 'date',
    };
  };

  it('keeps the type of a lone ${x} and interpolates inside text', () => {
    const vars = { a: { n: 3, list: [1, 2] } };
    expect(resolve('${a.n}', vars, gen())).to.equal(3);
    expect(resolve('n=${a.n} list=${a.list}', vars, gen())).to.equal('n=3 list=[1,2]');
    expect(readPath({ data: [{ id: 7 }] }, 'data.0.id')).to.equal(7);
  });

  it('names the missing variable', () => {
    expect(() => resolve('${nope.x}', { a: 1 }, gen())).to.throw(TemplateError, /no variable nope \(defined: a\)/);
  });

  it('makes run-tagged valid items and marks invalid ones for the batch oracle', () => {
    const g = gen();
    const items = resolve([{ $valid: 'job-offer', count: 2 }, { $invalid: 'job-offer', omit: 'title' }], {}, g) as Record<string, unknown>[];
    expect(items).to.have.length(3);
    expect(items[0]?.['reference']).to.match(/^rdxtest-\d+-JO$/);
    expect(items[0]?.['reference']).to.not.equal(items[1]?.['reference']);
    expect(items[2]).to.not.have.property('title');
    expect(g.invalidItems.has(items[2] as object)).to.equal(true);
    expect(g.invalidItems.has(items[0] as object)).to.equal(false);
  });

  it('keeps each $invalid item as it was before it was spoiled, for a control to send', () => {
    const g = gen();
    const [bad] = resolve([{ $invalid: 'job-offer', omit: 'title' }], {}, g) as Record<string, unknown>[];
    expect(bad).to.not.have.property('title');
    expect(g.repaired.get(bad as object)).to.deep.equal({ ...bad, title: 'T' });
  });

  it('breaks JSON in each named way, so that it no longer parses while the unbroken text does', () => {
    const value = [{ title: 'x', count: 1 }];
    for (const how of Object.keys(JSON_BREAKS)) {
      const text = resolve({ $json: value, break: how }, {}, gen()) as string;
      expect(() => JSON.parse(text), how).to.throw(SyntaxError);
    }
    expect(JSON.parse(resolve({ $json: value }, {}, gen()) as string)).to.deep.equal(value);
    expect(() => resolve({ $json: value, break: 'gently' }, {}, gen())).to.throw(TemplateError, /break gently/);
  });

  it('makes boundary text from the seeded faker: the same seed the same text, long text exactly as long as asked', () => {
    const text = (seed: number, kind: string, length?: number): string =>
      resolve({ $text: kind, ...(length ? { length } : {}) }, {}, { ...gen(), faker: createFaker(seed) }) as string;
    expect(text(7, 'scripts')).to.equal(text(7, 'scripts'));
    expect(text(7, 'scripts')).to.not.equal(text(8, 'scripts'));
    expect(text(7, 'scripts')).to.match(/[\u{10000}-\u{10FFFF}]/u).and.include('e\u0301').and.match(/[\u0590-\u06FF]/);
    expect(text(7, 'edges')).to.match(/^\s/).and.match(/\s$/).and.include('\\').and.include('"').and.include('<');
    for (const n of [256, 1000, 10000]) expect(Array.from(text(7, 'long', n))).to.have.length(n);
    expect(() => text(7, 'shouting')).to.throw(TemplateError, /unknown text kind/);
  });

  it('makes dates relative to the run anchor', () => {
    expect(resolve({ $date: -10, format: 'date' }, {}, gen())).to.equal('2026-05-22');
    expect(resolve({ $date: 1 }, {}, gen())).to.equal('2026-06-02T00:00:00Z');
    expect(resolve({ $date: 1, format: 'filter' }, {}, { ...gen(), dateFilterFormat: 'date-time' })).to.equal('2026-06-02T00:00:00Z');
    expect(resolve({ $date: 1, format: 'filter' }, {}, gen())).to.equal('2026-06-02');
    expect(resolve({ $base64: 'acme:s3cret' }, {}, gen())).to.equal('YWNtZTpzM2NyZXQ=');
  });
});

describe('verdictOf', () => {
  const a = (level: 'MUST' | 'SHOULD', passed: boolean) => ({ clause: 'X.Y', level, passed, message: '', check: 'c' });
  it('fails on a MUST, warns on a SHOULD only, observes OBSERVE cases', () => {
    expect(verdictOf('MUST', [a('MUST', false), a('SHOULD', false)])).to.equal('fail');
    expect(verdictOf('MUST', [a('MUST', true), a('SHOULD', false)])).to.equal('warn');
    expect(verdictOf('MUST', [a('MUST', true)])).to.equal('pass');
    expect(verdictOf('OBSERVE', [])).to.equal('observed');
  });
});

describe('baselines', () => {
  const result = (id: string, verdict: 'pass' | 'fail' | 'warn'): import('../core/results.js').CaseResult => ({
    id, title: 't', level: 'MUST', clauses: [], endpoints: [], tags: [], tier: 'read-only', file: 'f', verdict,
    assertions: verdict === 'pass' ? [] : [{ clause: 'ENVELOPE.MESSAGE', level: 'MUST', passed: false, message: 'message is missing', check: 'message-string' }],
    observations: [], exchanges: [], durationMs: 0,
  });

  it('excuses listed failures, reports unexpected passes and expired entries', async () => {
    const { applyBaseline } = await import('./baseline.js');
    const results = [result('a', 'fail'), result('b', 'pass'), result('c', 'fail')];
    const outcome = applyBaseline(results, [
      { id: 'a', reason: 'vendor ticket 12' }, { id: 'b', reason: 'fixed since' }, { id: 'c', reason: 'old', expires: '2020-01-01' },
    ], new Date('2026-01-01'));
    expect(results[0]?.baseline?.reason).to.equal('vendor ticket 12');
    expect(results[2]?.baseline).to.equal(undefined);
    expect(outcome).to.deep.equal({ unexpectedPasses: ['b'], expired: ['c'] });
  });

  it('refuses a stale entry and an entry without a reason, naming them', async () => {
    const { readBaseline } = await import('./baseline.js');
    const file = suiteFile('knownFailures:\n  - id: ghost\n    reason: x\n  - id: real\n');
    expect(() => readBaseline(file, new Set(['real']))).to.throw(/knownFailures\[0\]\.id: no case ghost \(stale entry[\s\S]*knownFailures\[1\]\.reason: missing/);
  });

  it('writes current failures, keeping earlier reasons', async () => {
    const { readBaseline, writeBaseline } = await import('./baseline.js');
    const file = suiteFile('');
    const n = writeBaseline(file, [result('a', 'fail'), result('b', 'pass'), result('c', 'warn')], [{ id: 'a', reason: 'ticket 7' }]);
    expect(n).to.equal(2);
    const written = (parseYaml(readFileSync(file, 'utf8')) as { knownFailures: { id: string; reason: string }[] }).knownFailures;
    expect(written.map((e) => e.id)).to.deep.equal(['a', 'c']);
    expect(written[0]?.reason).to.equal('ticket 7');
    expect(written[1]?.reason).to.match(/^TODO: .*ENVELOPE\.MESSAGE/);
    // The placeholder excuses nothing until someone writes why: reading it back names the entry.
    expect(() => readBaseline(file, new Set(['a', 'c']))).to.throw(/knownFailures\[1\]\.reason \(c\): still the generated placeholder/);
  });
});
