import { expect } from 'chai';
import fc from 'fast-check';
import { utf8Text } from './utf8.js';

describe('utf8Text (bytes read as UTF-8)', () => {
  it('reads any bytes as Buffer#toString("utf8") does: ASCII, other scripts, invalid and cut sequences', () => {
    const cases = [
      Buffer.from('{"data":[{},{}]}'),
      Buffer.from('Crème brûlée 採用担当 👩🏽‍💻'),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      Buffer.from('é').subarray(0, 1),
      Buffer.from([0x80]),
      Buffer.alloc(0),
    ];
    for (const bytes of cases) expect(utf8Text(bytes), bytes.toString('hex')).to.equal(bytes.toString('utf8'));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (raw) => {
      const bytes = Buffer.from(raw);
      expect(utf8Text(bytes)).to.equal(bytes.toString('utf8'));
    }), { seed: 7, numRuns: 500 });
  });
});
