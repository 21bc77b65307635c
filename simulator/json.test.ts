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

  it('serves a new object for a changed record, never the old text, in a list page and in a read', () => {
    // Both forms go through the record cache (a list page has meta; stored: the answer to a read).
    for (const serve of [
      (record: object) => bodyJson({ message: 'm', data: [record], meta: { next_link: null } }),
      (record: object) => bodyJson({ message: 'm', data: [record] }, true),
    ]) {
      const first = { id: 1, title: 'before' };
      expect(serve(first)).to.include('"title":"before"');
      const second = { ...first, title: 'after' };
      const text = serve(second);
      expect(text, 'the replaced record, same id').to.include('"title":"after"').and.not.include('before');
      expect(serve(first), 'the old object still reads as it is').to.include('"title":"before"');
    }
  });
});
