// A target that breaks rules on purpose, run through the real engine, so the reporters are tested on real reports
// with failures rather than on hand-made JSON. Its token endpoint works; ATS job offers are created and read back by
// their reference (so a probe's control succeeds); authenticated requests for any other record get a 404 whose body
// lacks `message` (breaking ENVELOPE.MESSAGE and ENVELOPE.ERROR_BODY); lists answer correctly; and requests without
// a valid token are refused properly.
import { createServer, type ServerResponse } from 'node:http';
import { defaults, type Profile } from '../../src/config/profile.js';
import { runConformance, type RunReport } from '../../src/engine/run.js';
import { listenOnLoopback } from './loopback.js';

export const CLIENT_SECRET = 'sekret-123';
export const ACCESS_TOKEN = 'tok-abcdef-123';

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

async function ruleBreakingTarget(): Promise<{ url: string; close: () => Promise<void> }> {
  const offers = new Map<string, unknown>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === '/oauth2/token') {
        const parsed = (() => { try { return JSON.parse(body || '{}') as { client_secret?: string }; } catch { return {}; } })();
        if (parsed.client_secret !== CLIENT_SECRET) return json(res, 401, { message: 'bad client', errors: [{ message: 'invalid_client', data: null }] });
        return json(res, 200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600 }, { 'cache-control': 'no-store' });
      }
      if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) {
        return json(res, 401, { message: 'A bearer token is required', errors: [{ message: 'invalid_token', data: null }] }, { 'www-authenticate': 'Bearer realm="test"' });
      }
      if (req.method === 'GET' && path === '/ats/job-offers') return json(res, 200, { message: 'ok', data: [], meta: { next_link: null } });
      if (req.method === 'POST' && path === '/ats/job-offers') {
        const items = (() => { try { return JSON.parse(body) as unknown; } catch { return undefined; } })();
        if (!Array.isArray(items)) return json(res, 400, { message: 'an array, please', errors: [{ message: 'not an array', data: null }] });
        for (const item of items) offers.set(String((item as { reference?: unknown }).reference), item);
        return json(res, 201, { message: `${items.length} created`, data: items });
      }
      const known = /^\/ats\/job-offers\/([^/]+)$/.exec(path);
      const offer = known && req.method === 'GET' ? offers.get(decodeURIComponent(known[1] ?? '')) : undefined;
      if (offer) return json(res, 200, { message: 'ok', data: [offer] });
      return json(res, 404, { errors: [{ message: 'no such record', data: null }] });
    });
  });
  return listenOnLoopback(server);
}

/** A real report with MUST failures, passes, a skip and observations. */
export async function ruleBreakingReport(grep = '^auth\\.|^token\\.|^job-offers\\.unknown-id\\.'): Promise<RunReport> {
  const t = await ruleBreakingTarget();
  try {
    const profile: Profile = { ...defaults(), baseUrl: t.url, clientId: 'rdx-test', clientSecret: CLIENT_SECRET, http: { ...defaults().http, timeoutMs: 2000 } };
    const { report } = await runConformance({ profile, reporter: 'none', filters: { grep } });
    return report;
  } finally {
    await t.close();
  }
}
