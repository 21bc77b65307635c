import { expect } from 'chai';
import fc from 'fast-check';
import { bodyScan, jsonScan, unsafeIntegers } from './json-scan.js';
import { jsonPrefix } from './json-prefix.js';
import { show } from '../checks/registry.js';

/** The scan as first written: one character at a time, strings included. */
function scanByCharacter(text: string): { depth: number; weight: number } {
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      containers++;
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c || c === 0x3a) members++;
  }
  return { depth: deepest, weight: 2 * text.length + 64 * containers + 16 * members };
}

/** JSON-ish text: structure, quotes, runs of backslashes, unterminated strings. */
const jsonish = fc.array(fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '\\\\', '\\"', 'a', ' ', '\u00e9', '\ud83d\ude00'), { maxLength: 80 }).map((parts) => parts.join(''));

describe('jsonScan', () => {
  it('says what the character-by-character scan says, on JSON and on any text of quotes and backslashes', () => {
    fc.assert(fc.property(fc.oneof(fc.json(), jsonish), (text) => {
      expect(jsonScan(text)).to.deep.equal(scanByCharacter(text));
    }), { numRuns: 2000 });
    expect(jsonScan('{"a\\\\":["b\\"}"]}')).to.deep.equal({ depth: 2, weight: 2 * 16 + 2 * 64 + 16 });
    expect(jsonScan('["never ends')).to.deep.equal({ depth: 1, weight: 2 * 12 + 64 });
  });

  it('scans an answer once, and again only when its body is another text', () => {
    const response = { body: '[{},{}]' };
    const first = bodyScan(response);
    expect(bodyScan(response)).to.equal(first);
    expect(first).to.deep.equal(jsonScan(response.body));
    response.body = '[[[1]]]';
    expect(bodyScan(response)).to.deep.equal({ depth: 3, weight: jsonScan('[[[1]]]').weight });
  });
});

/** A JSON tree whose integers may lie beyond 2^53, kept exact as BigInts (written as literals). */
type Exact = bigint | number | string | boolean | null | Exact[] | { [key: string]: Exact };
const exact = fc.letrec<{ v: Exact }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 30 }), fc.stringMatching(/^\d{14,22}$/), fc.boolean(), fc.constant(null),
    fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(fc.string({ maxLength: 5 }), tie('v'), { maxKeys: 5 })),
})).v;

const written = (v: Exact): string => {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(written).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${written(x)}`).join(',')}}`;
  return JSON.stringify(v);
};

/** Its integer literals beyond ±(2^53 - 1), in order: the BigInts, and the doubles written without an exponent. */
const beyond = (v: Exact): string[] => {
  if (Array.isArray(v)) return v.flatMap(beyond);
  if (v && typeof v === 'object') return Object.values(v).flatMap(beyond);
  const text = typeof v === 'bigint' || typeof v === 'number' ? written(v) : '';
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  return /^-?\d+$/.test(text) && (BigInt(text) > max || BigInt(text) < -max) ? [text] : [];
};

describe('unsafeIntegers', () => {
  it('finds the integer literals beyond ±(2^53 - 1), outside strings, as written: at most three', () => {
    fc.assert(fc.property(exact, (v) => {
      expect(unsafeIntegers(written(v))).to.deep.equal(beyond(v).slice(0, 3));
    }), { numRuns: 2000 });
    expect(unsafeIntegers('{"id":9007199254740991,"n":-9007199254740992,"x":12345678901234567890.5,"e":1e30}')).to.deep.equal(['-9007199254740992']);
    expect(unsafeIntegers('{"id":"1152921504606847524","note":"\\"99999999999999999"}')).to.deep.equal([]);
  });
});

/** A JSON value with what JSON.stringify leaves out or writes as null: undefined members and items, NaN. */
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constant(Number.NaN), fc.string({ unit: 'binary', maxLength: 400 }),
    fc.array(tie('value'), { maxLength: 6 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 6 })),
})).value;

describe('jsonPrefix and show', () => {
  it('start as JSON.stringify does, and are the whole text when it is short', () => {
    fc.assert(fc.property(value, fc.integer({ min: 1, max: 300 }), (v, limit) => {
      const whole = JSON.stringify(v);
      const prefix = jsonPrefix(v, limit);
      if (whole === undefined || whole.length < limit) {
        expect(prefix).to.equal(whole);
        return;
      }
      expect(prefix?.length).to.be.at.least(limit);
      expect(prefix?.slice(0, limit)).to.equal(whole.slice(0, limit));
    }), { numRuns: 2000 });
  });

  it('show renders as it always did: 160 characters of the JSON, then an ellipsis', () => {
    fc.assert(fc.property(value.filter((v) => v !== undefined), fc.integer({ min: 1, max: 200 }), (v, max) => {
      const text = JSON.stringify(v);
      expect(show(v, max)).to.equal(text.length > max ? `${text.slice(0, max)}…` : text);
    }), { numRuns: 1000 });
    expect(show(undefined)).to.equal('nothing');
    expect(show(new Date(0))).to.equal('"1970-01-01T00:00:00.000Z"');
    // What JSON.stringify itself decides: a toJSON that gives nothing is null in an array and left out of an object.
    const nothing = { toJSON: (): undefined => undefined };
    expect(show([nothing, { a: nothing, b: [nothing, new Date(0)] }])).to.equal(JSON.stringify([nothing, { a: nothing, b: [nothing, new Date(0)] }]));
    const page = { data: Array.from({ length: 100_000 }, (_, i) => ({ id: `JO-${i}`, title: 'x'.repeat(50) })) };
    expect(show(page)).to.equal(`${JSON.stringify(page).slice(0, 160)}…`);
  });
});
