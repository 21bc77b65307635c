// Path reading: what a step captures or observes, read from its answer ($status, $records, a body path, …).
import { sameValue } from '../checks/records.js';
import { batchVariant } from '../checks/batch.js';
import { endMarker } from '../checks/lists.js';
import { bodyObject, outcomeOf } from '../checks/registry.js';
import { readPath } from '../core/paths.js';
import type { Exchange } from '../core/results.js';
import type { CaseRun } from './case-run.js';

/** Reads a capture/observe path: $status, $headers.x, $records, $variant, $endMarker, $pageSize, $linkForm, $pages, $request.x, or a body path. */
export function extract(path: string, ex: Exchange, stepExchanges: Exchange[], body: unknown): unknown {
  const [head = '', ...rest] = path.split('.');
  const tail = rest.join('.');
  switch (head) {
    case '$status': return ex.response?.status;
    case '$outcome': return outcomeOf(ex);
    case '$headers': return ex.response?.headers[tail.toLowerCase()];
    case '$request': return readPath({ body }, tail);
    case '$records': return readPath(stepExchanges.flatMap((e) => (Array.isArray(bodyObject(e)?.['data']) ? (bodyObject(e)?.['data'] as unknown[]) : [])), tail);
    case '$pages': return stepExchanges.length;
    case '$variant': { const v = batchVariant(ex); return 'variant' in v ? v.variant : 'none'; }
    case '$endMarker': { const last = stepExchanges[stepExchanges.length - 1]; return last ? endMarker(last) ?? 'none' : undefined; }
    case '$pageSize': {
      const sizes = stepExchanges.map((e) => (Array.isArray(bodyObject(e)?.['data']) ? (bodyObject(e)?.['data'] as unknown[]).length : 0)).filter((n) => n > 0);
      return sizes.length >= 2 ? Math.max(...sizes) : undefined;
    }
    case '$linkForm': {
      const link = readPath(ex.response?.json, 'meta.next_link');
      if (typeof link !== 'string' || link === '') return 'none';
      return /^[a-z]+:\/\//i.test(link) ? 'absolute' : 'relative';
    }
    case '$body': return readPath(ex.response?.json, tail);
    default: return readPath(ex.response?.json, path);
  }
}

/**
 * An observed value: a path, or { from: path, includes?: v, equals?: v, map?: {raw: value}, otherwise?: value } to
 * turn a raw fact into the register's vocabulary (e.g. "was the record on the bound returned" → true/false).
 * `includes` and `equals` may be templates (${offer.reference}).
 */
export function observedValue(run: CaseRun, how: unknown, ex: Exchange, stepExchanges: Exchange[], body: unknown): unknown {
  if (typeof how === 'string') return extract(how, ex, stepExchanges, body);
  const spec = (how ?? {}) as { from?: string; includes?: unknown; equals?: unknown; map?: Record<string, unknown>; otherwise?: unknown };
  let value = extract(String(spec.from ?? '$status'), ex, stepExchanges, body);
  if ('includes' in spec) {
    const wanted = JSON.stringify(run.resolve(spec.includes));
    value = Array.isArray(value) && value.some((v) => JSON.stringify(v) === wanted);
  }
  if ('equals' in spec) value = sameValue(run.resolve(spec.equals), value);
  if (spec.map) value = String(value) in spec.map ? spec.map[String(value)] : ('otherwise' in spec ? spec.otherwise : value);
  return value;
}
