import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { interpretations, packageRoot } from '../src/spec/index.js';
import { IMPLEMENTED, OUTCOMES, PARAMETERS, checkImplemented, rules } from './rules.js';

describe('simulator rules (its reading of spec/interpretations.yaml)', () => {
  it('implements what the register says the simulator does', () => {
    expect(() => checkImplemented()).not.to.throw();
  });

  it('decides every open point of the register exactly once', () => {
    const decided = [...Object.keys(IMPLEMENTED), ...PARAMETERS];
    expect(new Set(decided).size).to.equal(decided.length);
    expect(decided.sort()).to.deep.equal(interpretations().map((i) => i.id).sort());
  });

  it('answers each outcome with the status the register gives it (read here from the YAML itself)', () => {
    const { interpretations: register } = parseYaml(readFileSync(join(packageRoot, 'spec', 'interpretations.yaml'), 'utf8')) as { interpretations: { id: string; simulator: { default: unknown } }[] };
    const statusCodes = register.find((i) => i.id === 'STATUS_CODES')?.simulator.default as Record<string, number>;
    expect(Object.keys(statusCodes).sort(), 'the register names every outcome').to.deep.equal([...OUTCOMES].sort());
    expect(rules().status).to.deep.equal(statusCodes);
    expect(rules().listParamNames('reference')).to.deep.equal(['reference', 'reference[]']);
    expect(rules().paginationEnd).to.equal(null);
  });
});
