// The parts of undici the HTTP client uses, each from its own module: the package's index loads every dispatcher,
// fetch, WebSocket, the caches and the mocks (135 ms of every `rdx run`'s start-up, where these parts take 45 ms).
// Should an undici release move them, the index serves instead: the same classes, only slower to load
// (undici.test.ts fails then, so the paths get mended).
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

type Index = typeof Undici;
type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Undici.Dispatcher };

interface Parts {
  Agent: Index['Agent'];
  ProxyAgent: Index['ProxyAgent'];
  errors: Index['errors'];
  request: (url: string, options: RequestOptions) => Promise<Undici.Dispatcher.ResponseData>;
  /** Where they came from: their own modules, or the index (a release that moved them). */
  from: 'modules' | 'index';
}

function ownModules(): Parts {
  const api = require('undici/lib/api/index.js') as { request: (this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData> };
  const { parseURL } = require('undici/lib/core/util.js') as { parseURL: (url: string) => URL };
  return {
    Agent: require('undici/lib/dispatcher/agent.js') as Index['Agent'],
    ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js') as Index['ProxyAgent'],
    errors: require('undici/lib/core/errors.js') as Index['errors'],
    // As the index's request(url, options) does: the URL checked and split into origin and path, then the
    // dispatcher's request.
    request(url, { dispatcher, ...options }) {
      const parsed = parseURL(url);
      return api.request.call(dispatcher, { ...options, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
    },
    from: 'modules',
  };
}

function index(): Parts {
  const undici = require('undici') as Index;
  return { Agent: undici.Agent, ProxyAgent: undici.ProxyAgent, errors: undici.errors, request: (url, options) => undici.request(url, options), from: 'index' };
}

function load(): Parts {
  try {
    return ownModules();
  } catch {
    return index();
  }
}

export const undici: Parts = load();
/** For undici.test.ts: the parts as the index exports them. */
export const undiciIndex = index;
