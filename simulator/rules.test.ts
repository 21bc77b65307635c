import { expect } from 'chai';
import { interpretations } from '../src/spec/index.js';
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

  it('has a status for every outcome it answers', () => {
    for (const outcome of OUTCOMES) expect(rules().status[outcome], outcome).to.be.within(100, 599);
    expect(rules().listParamNames('reference')).to.deep.equal(['reference', 'reference[]']);
    expect(rules().paginationEnd).to.equal(null);
  });
});
