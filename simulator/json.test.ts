import { expect } from 'chai';
import { bodyJson } from './json.js';

describe('simulator response JSON', () => {
  it('writes exactly what JSON.stringify writes', () => {
    const record = { id: 1, title: 'Nurse "A"', nested: { list: [1, null, 'x'] } };
    const bodies = [
      { message: 'm', data: [record, record, { value: 'v' }, [record], 3, null], meta: { next_link: null } },
      { message: 'only' },
      { message: 'e', errors: [{ message: 'x', data: null }] },
      { message: 'u', data: [], skipped: undefined },
    ];
    for (const body of bodies) expect(bodyJson(body)).to.equal(JSON.stringify(body));
  });

  it('serves a new object for a changed record, never the old text', () => {
    const first = { id: 1, title: 'before' };
    expect(bodyJson({ message: 'm', data: [first] })).to.include('before');
    const second = { ...first, title: 'after' };
    expect(bodyJson({ message: 'm', data: [second] })).to.include('after');
  });
});
