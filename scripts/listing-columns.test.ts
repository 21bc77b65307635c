import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { packageRoot, resourceInfo } from '../src/spec/index.js';
import { listingColumns } from './listing-columns.js';

/**
 * The values of the object literals of a script that have every one of these keys, each evaluated on its own: what
 * the code holds, however a bundler prints it (quotes, spacing, key order, minified or not).
 */
function literalsKeyed(code: string, keys: string[]): unknown[] {
  const file = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: unknown[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const names = node.properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined));
      if (keys.every((k) => names.includes(k))) found.push(runInNewContext(`(${node.getText(file)})`));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('spec: listing columns (x-rdx-columns)', () => {
  const resources = ['job-offer', 'job-offer-attribute', 'application-step', 'jobboard-activity', 'jobboard-job-offer', 'user'];

  it('names fields of the resource, with what each holds read from the schema', () => {
    for (const resource of resources) {
      const columns = listingColumns(resource);
      expect(columns, resource).to.not.be.empty;
      for (const c of columns) expect(['text', 'number', 'reference'], `${resource}.${c.name}`).to.include(c.kind);
    }
    expect(listingColumns('job-offer').find((c) => c.name === 'reference')?.kind).to.equal('reference');
    expect(listingColumns('jobboard-activity').find((c) => c.name === 'count')?.kind).to.equal('number');
    expect(listingColumns('user').map((c) => c.name)).to.deep.equal(['mail', 'first_name', 'last_name', 'subsidiary', 'status']);
    // A column is a field of the resource, not a copy that could drift: the identity field leads the job offers.
    expect(listingColumns('job-offer')[0]?.name).to.equal(resourceInfo('job-offer').identity);
  });

  it('reach the dashboard bundle from spec/ at build time', () => {
    const bundle = readFileSync(join(packageRoot, 'dist/simulator/dashboard/ui/app.js'), 'utf8');
    const expected = Object.fromEntries(resources.map((r) => [r, listingColumns(r)]));
    // The one table of columns by resource in the bundle is the spec's, whole (JSON: the bundle's values, compared as data).
    const tables = literalsKeyed(bundle, resources);
    expect(tables, 'object literals keyed by every resource in the bundle').to.have.length(1);
    expect(JSON.parse(JSON.stringify(tables[0]))).to.deep.equal(expected);
  });
});
