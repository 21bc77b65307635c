// Reading a request's body: the bytes up to a limit, strict UTF-8 (for the body and the query's escapes), a form's
// fields, and the body stage of the pipeline. The admin routers read their bodies with readBody too.
import type { IncomingMessage } from 'node:http';
import type { Operation } from '../src/spec/index.js';
import type { RequestContext } from './context.js';
import { SimError } from './envelope.js';
import type { PersonaHooks } from './personas/types.js';
import { rules } from './rules.js';
import { checkBody } from './validate.js';

/** The request ended before its body did (the client went away); nothing is answered. */
export class ClientGone extends Error {}

/** Reads a body up to limit bytes; undefined as soon as it is larger (the rest is never buffered). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      // A body that came in one chunk (most do) is used as it is, not copied.
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (): void => {
      done();
      reject(new ClientGone());
    };
    const onClose = (): void => {
      if (!req.complete) onError();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as text, or undefined when its bytes are not UTF-8. Never replaced with U+FFFD: INV-\xff and INV-\xfe
 * would both become INV-\ufffd, two different requests one record. A BOM is kept, so JSON.parse still refuses it.
 */
export function utf8(raw: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(raw);
  } catch {
    return undefined;
  }
}

const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Whether every run of percent-escapes in a query string decodes to UTF-8. URLSearchParams puts U+FFFD in place of
 * one that does not, so ?reference=INV-%FF and ?reference=INV-%FE would both ask for INV-\ufffd.
 */
export function queryIsUtf8(query: string): boolean {
  if (!query.includes('%')) return true;
  for (const run of query.match(ESCAPE_RUN) ?? []) {
    if (utf8(Buffer.from(run.replace(/%/g, ''), 'hex')) === undefined) return false;
  }
  return true;
}

/** A form body's fields, or undefined when a percent-escape does not decode to UTF-8 (%FF) or is malformed. */
function formFields(text: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    try {
      const name = decodeURIComponent((at === -1 ? pair : pair.slice(0, at)).replace(/\+/g, ' '));
      fields[name] = decodeURIComponent((at === -1 ? '' : pair.slice(at + 1)).replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
  }
  return fields;
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * The body stage: reads, decodes and parses a request's body into ctx.body (ctx.rawBody its bytes), then lets the
 * personas' beforeValidation hooks change it and checks it against the operation's schema (a token request's body
 * is the token endpoint's to judge). Refuses with a SimError; the client going away rejects with ClientGone.
 */
export async function readRequestBody(ctx: RequestContext, op: Operation, limit: number, list: readonly PersonaHooks[]): Promise<void> {
  const isToken = op.kind === 'token';
  if (!hasBody(ctx.req)) {
    throw new SimError('validation', isToken
      ? 'invalid_request: the token request needs a body with client_id and client_secret.'
      : 'This request needs a JSON body.');
  }
  const type = mediaType(ctx.headers['content-type']);
  const accepted = isToken ? rules().tokenMediaTypes : ['application/json'];
  if (!accepted.includes(type)) {
    throw new SimError('unsupportedMediaType', `The request body must be ${accepted.join(' or ')}, not ${type === '' ? 'sent without a Content-Type' : type}.`);
  }
  const raw = await readBody(ctx.req, limit);
  // The rest of an oversized body is never read: the connection closes after the answer.
  if (!raw) throw new SimError('payloadTooLarge', `The request body is larger than ${limit} bytes.`, undefined, { connection: 'close' });
  ctx.rawBody = raw;
  const text = utf8(raw);
  if (text === undefined) throw new SimError('malformedJson', 'The request body is not valid UTF-8.');
  let parsed: unknown;
  if (type === 'application/x-www-form-urlencoded') {
    parsed = formFields(text);
    if (parsed === undefined) throw new SimError('validation', 'invalid_request: the form body has a percent-escape that is not UTF-8.');
  } else {
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new SimError('malformedJson', `The request body is not well-formed JSON: ${(error as Error).message}.`);
    }
  }
  ctx.body = parsed;
  // A persona may stand in for a lenient server that rewrites a body before it is checked (hook beforeValidation).
  for (const hooks of list) await hooks.beforeValidation?.(ctx);
  parsed = ctx.body;
  if (isToken) return;
  if (op.requestIsArray) {
    if (!Array.isArray(parsed)) throw new SimError('validation', 'The request body must be a JSON array.');
    return;
  }
  const checked = checkBody(op.requestSchema as string, parsed);
  if (!checked.ok) throw new SimError('validation', 'The request body is not valid.', checked.problems);
  ctx.body = checked.value;
}
