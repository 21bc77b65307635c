import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { MASK, MAX_SECRETS, Secrets, stripUserinfo, stripUserinfoInText } from './redact.js';
import type { Exchange } from '../core/results.js';

/** JSON as PHP's json_encode writes it by default: `/` as `\/`, everything beyond ASCII as `\uXXXX`. */
const php = (text: string): string => JSON.stringify(text).slice(1, -1).replace(/\//g, '\\/')
  .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('Secrets', () => {
  const SECRET = 'pA/ss+w0rd/Ün"\\é';

  it('masks a secret in every form a body can carry it: raw, JSON- and PHP-escaped, percent- and form-encoded, mixed', () => {
    const secrets = new Secrets();
    secrets.add(SECRET);
    const forms = [
      SECRET, JSON.stringify(SECRET).slice(1, -1), php(SECRET), encodeURIComponent(SECRET),
      encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()), new URLSearchParams({ s: SECRET }).toString().slice(2),
      // Any character may be escaped, not only those that must be.
      '\\u0070A\\/ss%2Bw0rd/\\u00DCn\\"%5C%C3%A9',
    ];
    for (const form of forms) expect(secrets.scrub(`{"echo":"x=${form}&y=1"}`), form).to.equal(`{"echo":"x=${MASK}&y=1"}`);
  });

  it('masks with one matcher however many secrets there are, keys and values of a parsed body alike', () => {
    const secrets = new Secrets();
    const tokens = Array.from({ length: 1_100 }, (_, i) => `tok-${i.toString(36).padStart(4, '0')}-${'x'.repeat(i % 7)}`);
    for (const t of tokens) secrets.add(t);
    expect(secrets.size).to.equal(1_100);
    const page = { data: tokens.map((t, i) => (i % 2 ? t : { [t]: `a ${t} b` })), meta: { next_link: null } };
    const masked = JSON.stringify(secrets.scrubValue(page));
    for (const t of tokens) expect(masked).to.not.include(t);
    // Overlapping secrets (one the start of another): the longest is masked whole, nothing of it left.
    secrets.add('tok-0006-xx');
    expect(secrets.scrub('tok-0006-xxxxxx! tok-0006-xxy')).to.equal(`${MASK}! ${MASK}y`);
    // A part without a secret is not copied.
    const clean = { data: ['a', 'b'], meta: { n: 1 } };
    expect(secrets.scrubValue(clean)).to.equal(clean);
  });

  it('keeps adding secrets after masking began, and still masks the earlier ones', () => {
    const secrets = new Secrets();
    const seen: string[] = [];
    for (let i = 0; i < 300; i++) {
      const token = `token-${i}-${'abcdefgh'.slice(i % 8)}`;
      secrets.add(token);
      seen.push(token);
      const text = seen.slice(-3).concat(seen[0] as string).join(' | ');
      expect(secrets.scrub(text).split(' | ').every((part) => part === MASK), text).to.equal(true);
    }
  });

  it('masks a short text again once a secret in it is learnt, though it was scrubbed before (it remembers short texts)', () => {
    const secrets = new Secrets();
    secrets.add('first-secret');
    const header = 'Bearer late-token-123';
    expect(secrets.scrub(header)).to.equal(header);
    secrets.add('late-token-123');
    expect(secrets.scrub(header)).to.equal(`Bearer ${MASK}`);
    // And a protected text learnt later is left alone where it was masked before.
    secrets.add('127.0.0.9');
    expect(secrets.scrub('at http://127.0.0.9:81/')).to.equal(`at http://${MASK}:81/`);
    secrets.protect('http://127.0.0.9:81');
    expect(secrets.scrub('at http://127.0.0.9:81/')).to.equal('at http://127.0.0.9:81/');
    // Past the number it remembers, it still masks every text.
    for (let i = 0; i < 5_000; i++) expect(secrets.scrub(`n${i} late-token-123`)).to.equal(`n${i} ${MASK}`);
  });

  it('refuses more than MAX_SECRETS rather than leave one unmasked', () => {
    const secrets = new Secrets();
    for (let i = 0; i < MAX_SECRETS; i++) secrets.add(`secret-${i}`);
    expect(() => secrets.add('one-too-many')).to.throw(/more than 4096 secrets/);
    secrets.add('secret-1'); // known already: no error
  });

  it('never masks inside the target\'s origin, even when a token equals its host', () => {
    const secrets = new Secrets();
    secrets.add('127.0.0.1');
    secrets.protect('http://127.0.0.1:8080');
    expect(secrets.scrubUrl('http://user:pw@127.0.0.1:8080/a/127.0.0.1?access_token=127.0.0.1')).to.equal(`http://127.0.0.1:8080/a/${MASK}?access_token=${MASK}`);
    expect(secrets.scrub('next_link http://127.0.0.1:8080/x from 127.0.0.1')).to.equal(`next_link http://127.0.0.1:8080/x from ${MASK}`);
  });

  it('cuts a long body after masking its head, leaving no part of a secret at the cut', () => {
    const secrets = new Secrets();
    secrets.add('sec/ret-value');
    const escaped = 'sec\\/ret-value';
    for (let at = 80; at <= 100; at++) {
      const text = `${'a'.repeat(at)}${escaped}${'b'.repeat(10_000)}`;
      const head = secrets.scrubHead(text, 90);
      expect(head.length, `secret at ${at}`).to.be.at.most(90);
      // Whatever of the secret is left (nothing, or its mask) is no prefix of any of its forms.
      const tail = head.slice(at);
      expect(tail === '' || tail === MASK || tail.startsWith(MASK), `secret at ${at}: ${JSON.stringify(tail)}`).to.equal(true);
    }
  });

  it('redacts an exchange: URL after the origin, headers, bodies, parsed body; keeps only the text or a head when asked', () => {
    const secrets = new Secrets();
    secrets.add('s3cret-value');
    secrets.add('tok_abcdef');
    secrets.add('abc'); // too short to be a secret: ignored so it does not mask innocent text
    const ex: Exchange = {
      step: 'x',
      request: { method: 'POST', url: 'http://h/p?access_token=tok_abcdef', headers: { authorization: 'Bearer tok_abcdef' }, body: '{"client_secret":"s3cret-value"}' },
      response: { status: 200, headers: { 'x-echo': 'tok_abcdef' }, body: '{"access_token":"tok_abcdef","abc":1}', json: { access_token: 'tok_abcdef', abc: 1 } },
      startedAt: '', elapsedMs: 1,
    };
    const red = secrets.redact(ex);
    expect(JSON.stringify(red)).to.not.include('tok_abcdef').and.not.include('s3cret-value');
    expect(red.request.headers['authorization']).to.equal(`Bearer ${MASK}`);
    expect(red.request.url).to.equal(`http://h/p?access_token=${MASK}`);
    expect(red.response?.json).to.deep.equal({ access_token: MASK, abc: 1 });
    expect(secrets.redact(ex, { json: false }).response).to.not.have.property('json');
    expect(secrets.redact(ex, { cut: 30 }).response?.body).to.equal(`{"access_token":"${MASK}","`);
    // A secret across the cut is cut off whole.
    expect(secrets.redact(ex, { cut: 20 }).response?.body).to.equal('{"access_token":"');
  });

  it('keeps a parsed body read from its text as it is only when no string of it could be masked (parsedFromBody)', () => {
    const secrets = new Secrets();
    secrets.add('s3cret/value');
    const exchange = (body: string): Exchange => ({
      step: 'x', request: { method: 'GET', url: 'http://h/p', headers: {} },
      response: { status: 200, headers: {}, body, json: JSON.parse(body) as unknown }, startedAt: '', elapsedMs: 1,
    });
    const bodies = [
      '{"data":[{"name":"plain","n":1}]}',
      '{"data":[{"name":"s3cret/value"}]}',
      '{"s3cret/value":1}',
      '{"echo":"s3cret%2Fvalue"}',
      // Only the parsed string holds the secret percent-encoded: its text holds the percent sign escaped.
      '{"echo":"s3cret\\u00252Fvalue"}',
      '{"echo":"s3cret\\/value"}',
      '{"link":"http://user:pw@h/x"}',
    ];
    for (const body of bodies) {
      const ex = exchange(body);
      expect(secrets.redact(ex, { parsedFromBody: true }), body).to.deep.equal(secrets.redact(ex));
      expect(JSON.stringify(secrets.redact(ex, { parsedFromBody: true }).response?.json), body).to.not.match(/s3cret|user:pw/);
    }
    // Nothing to mask: the parsed body is the one recorded, not a copy.
    const clean = exchange(bodies[0] as string);
    expect(secrets.redact(clean, { parsedFromBody: true }).response?.json).to.equal(clean.response?.json);
  });

  it('strips userinfo from a URL, and leaves what is not a URL as it is', () => {
    expect(stripUserinfo('http://user:pass@proxy.example:3128/')).to.equal('http://proxy.example:3128/');
    expect(stripUserinfo('http://proxy.example:3128')).to.equal('http://proxy.example:3128');
    expect(stripUserinfo('not a url')).to.equal('not a url');
  });

  describe('encoded forms (issue 37 §2)', () => {
    const secret = 'tok-Zq9/x+Ü~7mR2vK8w';
    const bytes = Buffer.from(secret, 'utf8');
    const secrets = new Secrets();
    secrets.add(secret);
    const hex = bytes.toString('hex');
    const html = (text: string, radix: 10 | 16, semicolon = ';', zeros = ''): string =>
      [...text].map((c) => `&#${radix === 16 ? 'x' : ''}${zeros}${(c.codePointAt(0) as number).toString(radix)}${semicolon}`).join('');

    it('masks base64, base64url, hex in either case, and HTML character references, whole', () => {
      const forms: [string, string][] = [
        ['base64', bytes.toString('base64')], ['base64, no padding', bytes.toString('base64').replace(/=+$/, '')],
        ['base64url', bytes.toString('base64url')], ['hex', hex], ['HEX', hex.toUpperCase()],
        ['decimal references', html(secret, 10)], ['hex references', html(secret, 16)],
        ['references without ;', html(secret, 10, '').replace(/&#(\d+)$/, '&#$1;')], ['references with leading zeros', html(secret, 16, ';', '000')],
        ['mixed raw and references', `${secret.slice(0, 5)}${html(secret.slice(5, 9), 10)}${secret.slice(9)}`],
      ];
      for (const [name, form] of forms) {
        const masked = secrets.scrub(`<p>echo: ${form}</p>`);
        expect(masked.includes(MASK), name).to.equal(true);
        expect(masked.includes(form), name).to.equal(false);
        // What is left of the form around the mask is at most the padding and one character of partial bits.
        expect(masked.replace(MASK, '').length - '<p>echo: </p>'.length, name).to.be.at.most(3);
      }
    });

    /** Whether any run of base64 characters left in the text decodes, at any alignment, to 4 bytes of the secret. */
    const leaksBase64 = (text: string, alphabet: RegExp): boolean => (text.match(alphabet) ?? []).some((run) => {
      for (let skip = 0; skip < 4; skip++) {
        const decoded = Buffer.from(run.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
        for (let i = 0; i + 4 <= bytes.length; i++) if (decoded.includes(bytes.subarray(i, i + 4))) return true;
      }
      return false;
    });

    it('masks base64 and base64url of the secret inside a larger blob, at each of the three byte alignments', () => {
      for (let a = 0; a < 3; a++) {
        for (const encoding of ['base64', 'base64url'] as const) {
          const blob = Buffer.concat([randomBytes(30 + a), bytes, randomBytes(31)]).toString(encoding);
          const alphabet = encoding === 'base64' ? /[A-Za-z0-9+/]+/g : /[A-Za-z0-9_-]+/g;
          expect(leaksBase64(blob, alphabet), `the blob holds it (${encoding}, offset ${a})`).to.equal(true);
          const masked = secrets.scrub(`{"blob":"${blob}"}`);
          expect(leaksBase64(masked, alphabet), `${encoding} at offset ${a} mod 3`).to.equal(false);
        }
      }
    });

    it('masks a 1 MiB body that repeats the secret in every form in one linear pass, the origin kept', () => {
      const withOrigin = new Secrets();
      withOrigin.add(secret);
      withOrigin.add('127.0.0.1');
      withOrigin.protect('http://127.0.0.1:8080');
      const unit = `http://127.0.0.1:8080 ${bytes.toString('base64')} ${hex} ${html(secret, 10)} ${secret} `;
      const body = unit.repeat(Math.ceil(2 ** 20 / unit.length));
      const masked = withOrigin.scrub(body);
      const count = (text: string, part: string): number => text.split(part).length - 1;
      const units = count(body, 'http://127.0.0.1:8080');
      expect(count(masked, MASK)).to.equal(4 * units);
      expect(count(masked, 'http://127.0.0.1:8080')).to.equal(units);
    });

    it('strips the userinfo of every URL in a text, and only that', () => {
      expect(stripUserinfoInText('GET http://lookup:pa%40ss@127.0.0.1:9/ids?x=1 failed')).to.equal('GET http://127.0.0.1:9/ids?x=1 failed');
      expect(stripUserinfoInText('{"a":"//u:p@h/x","b":"mail@example.org"}')).to.equal('{"a":"//h/x","b":"mail@example.org"}');
      expect(new Secrets().scrub('no token: the token endpoint https://id:pw@auth.example/token did not answer')).to.equal('no token: the token endpoint https://auth.example/token did not answer');
      // Linear: no match runs past a slash, however the text repeats what looks like a scheme.
      const hostile = `${'a.'.repeat(2 ** 19)}@`;
      expect(stripUserinfoInText(hostile)).to.equal(hostile);
    });
  });
});
