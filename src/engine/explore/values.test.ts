// Which values exploration lets a target refuse: those a limit the spec does not show could refuse. Everything else
// is a value the spec admits, and refusing it fails the write.
import { expect } from 'chai';
import { refusable } from './values.js';

describe('refusable values (FIELD_LIMITS, LIMITS)', () => {
  it('lets a limit refuse long or blank text, a count outside 1 to 2^31 - 1 and a date outside 2000-2037', () => {
    for (const value of ['x'.repeat(256), '', '   ', 0, -1, 0.5, 2_147_483_648, '1999-12-31', '2038-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z']) {
      expect(refusable(value), JSON.stringify(value)).to.equal(true);
    }
  });

  it('holds every other value to be accepted: text of any script and markup, small counts, dates of this century', () => {
    for (const value of ['x'.repeat(255), ' padded ', 'a\tb\nc', '<script>alert(1)</script>', '👩🏽‍💻', '0', 1, 2_147_483_647, '2000-01-01', '2037-12-31T23:59:59Z', '2026-03-01T09:00:00.250Z', true]) {
      expect(refusable(value), JSON.stringify(value)).to.equal(false);
    }
  });
});
