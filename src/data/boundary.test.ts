import { expect } from 'chai';
import type { Faker } from '@faker-js/faker';
import { boundaryText } from './boundary.js';
import { createFaker } from './factories.js';

/** A faker whose prose holds characters outside the BMP (two UTF-16 units each), in a fixed cycle. */
function astralProse(): Faker {
  let k = 0;
  const sentences = ['a😀b c', 'x𝄞y😀 z', 'plain words', '😀😀'];
  return { lorem: { sentence: () => sentences[k++ % sentences.length] } } as unknown as Faker;
}

describe('boundaryText long', () => {
  it('is exactly as many code points as asked, the prose cut there, with 𝄞 third from the end', () => {
    for (const faker of [() => createFaker(3), astralProse]) {
      // The same faker's first 40 sentences, as code points: what the text must be a prefix of.
      const f = faker();
      const prose = Array.from(Array.from({ length: 40 }, () => `${f.lorem.sentence()} `).join(''));
      for (const length of [1, 3, 4, 5, 9, 10, 33, 100]) {
        const points = Array.from(boundaryText(faker(), 'long', length));
        expect(points, `${length}`).to.have.length(length);
        const expected = prose.slice(0, length);
        if (length >= 4) expected[length - 3] = '𝄞';
        expect(points.join(''), `${length}`).to.equal(expected.join(''));
      }
    }
  });
});
