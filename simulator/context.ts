// What every stage of the request pipeline, every handler and every persona hook sees.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Operation } from '../src/spec/index.js';
import type { Outcome } from './rules.js';
import type { Store } from './store.js';
import type { TokenStore } from './auth.js';

export type JsonObject = Record<string, unknown>;

/**
 * What a request may read of the options in force. options.ts's ResolvedOptions is one; it is not named here because
 * it holds the personas, whose hooks see this context (the types would import each other).
 */
export interface RequestOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Token lifetime in seconds. */
  readonly tokenTtl: number;
  readonly pageSize: number;
  readonly maxBodyBytes: number;
  readonly basePath: string;
  readonly seed: number;
  readonly records: number;
  readonly now: () => number;
  /** The {base_url} clients reach from outside (--public-url), without a trailing slash. */
  readonly publicUrl: string | undefined;
  /** Whether Forwarded / X-Forwarded-* headers tell the origin clients used (--trust-proxy). */
  readonly trustProxy: boolean;
}

/** The pipeline stage a request reached: route → authenticate → body → handler. */
export type Stage = 'request' | 'route' | 'authenticate' | 'body' | 'handler';

export interface SimResponse {
  status: number;
  /**
   * What the response means, as named in interpretation STATUS_CODES ('internal' for the simulator's own fault,
   * 'throttled' for a 429 of the rate limit: neither is an answer the spec leaves open).
   */
  outcome: Outcome | 'internal' | 'throttled';
  headers: Record<string, string>;
  /** A JSON body; serialized after the afterHandler hooks. */
  body: JsonObject;
}

/** Bytes on the wire, for a serialize hook that wants to send something other than the JSON of the body. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  /** The envelope body was serialized from, when it is exactly bodyJson(value) (the journal keeps this instead). */
  value?: JsonObject;
}

export type AuthVerdict =
  | { ok: true; clientId: string }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'query' };

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** The path as received, query excluded. */
  readonly rawPath: string;
  /** The path below the base path: what the routes of spec/openapi.yaml are matched against. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly store: Store;
  readonly tokens: TokenStore;
  readonly options: RequestOptions;
  /** The simulator's base URL (origin and base path), for links when the Host header cannot be used. */
  readonly baseUrl: string;
  stage: Stage;
  /** The operation the route names, once routed. */
  operation: Operation | undefined;
  /** Decoded path parameters ({id}, {name}). */
  params: Record<string, string>;
  /** The client id of the bearer token, once authenticated. */
  clientId: string | undefined;
  /** The request body as received (before parsing), when there is one. */
  rawBody: Buffer | undefined;
  /** The parsed body; for single-object bodies validated and with null fields removed. */
  body: unknown;
  /** Undoes every store write this request made (nothing before the handler ran). */
  rollback(): void;
}
