import { expect } from 'chai';
import { bodyJson, copyBody } from './json.js';

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

  describe('copyBody (what persona hooks get)', () => {
    it('copies as structuredClone does: equal, sharing nothing with the original, shared parts still shared', () => {
      const shared = { name: 'skill', value: 'TypeScript' };
      const body = { message: 'ok', data: [{ id: 1, attributes: [shared, shared], remote: true, salary: null, gone: undefined }], meta: { next_link: 'x' } };
      const copy = copyBody(body);
      expect(copy).to.deep.equal(structuredClone(body));
      expect(Object.keys(copy.data[0] as object)).to.deep.equal(Object.keys(structuredClone(body).data[0] as object));
      (copy.data[0] as { attributes: { value: string }[] }).attributes[0]!.value = 'changed';
      expect(shared.value, 'the original untouched').to.equal('TypeScript');
      expect((copy.data[0] as { attributes: { value: string }[] }).attributes[1]!.value, 'one object in the copy, as in the body').to.equal('changed');
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic['self'] = cyclic;
      const again = copyBody(cyclic);
      expect(again['self']).to.equal(again);
    });

    it('keeps an own "__proto__" member a member, and never changes a copy\'s prototype', () => {
      const body = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as Record<string, unknown>;
      const copy = copyBody(body);
      expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
      expect(Object.keys(copy)).to.deep.equal(['__proto__', 'x']);
      expect((copy as { polluted?: boolean }).polluted).to.equal(undefined);
      expect(JSON.stringify(copy)).to.equal(JSON.stringify(structuredClone(body)));
    });

    it('leaves what is not plain to structuredClone: dates, holes, and what it refuses', () => {
      const at = new Date('2026-11-28T10:00:00Z');
      // A hole, as `[1, , 3]` would make it.
      const list = [1, 2, 3];
      delete list[1];
      const dated = copyBody({ at, list });
      expect(dated.at).to.be.instanceOf(Date).and.not.equal(at);
      expect(dated.at.getTime()).to.equal(at.getTime());
      expect(1 in dated.list, 'a hole stays a hole').to.equal(false);
      expect(() => copyBody({ f: () => 1 })).to.throw(/could not be cloned/);
    });
  });
});

