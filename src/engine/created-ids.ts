// The {id} of what the run created (RECORD_ID): from the listing, the answer, or the profile's id source.
import { bodyObject, outcomeOf } from '../checks/registry.js';
import { operations, resourceInfo, type Operation } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import type { Exchange, Unlock } from '../core/results.js';
import type { StepDef } from './suite.js';
import { aRecord, describeKey, idSourceKey, idSourceUnlock, idValue, isIdSourceResource, matchesKey, type RecordKey } from './id-sources.js';
import { Stop, assertion, type CaseRun } from './case-run.js';
import { send, tokenGet } from './request.js';
import { walk } from './walk.js';

type Found = { value: unknown } | { why: string; unlock?: Unlock };

/**
 * The {id} of the record a batch create made from body item n (capture `$created.n.id`), found where the
 * implementation shows it (RECORD_ID): where the resource has a list, the listing filtered by the item's key (the
 * id as the service stores it, whichever batch variant answered); else the answer's data (the record with the
 * item's key, else the n-th); else the profile's id source for the resource (idSources). Else why none was found,
 * and the id source that would tell it.
 */
export async function createdId(run: CaseRun, step: StepDef, op: Operation | undefined, body: unknown, n: number, answer: Exchange): Promise<Found> {
  const item = Array.isArray(body) ? (body[n] as Record<string, unknown> | undefined) : undefined;
  if (op?.kind !== 'batchCreate' || !item || typeof item !== 'object') {
    throw new Stop('error', `suite error: step "${step.name}": $created.${n}.id needs a batch create whose body has an item ${n}`);
  }
  const data = bodyObject(answer)?.['data'];
  const records = Array.isArray(data) ? data : [];
  const key = keyOf(op.resource, item);
  const fromData = readPath(records.find((r) => matchesKey(r, key)) ?? records[n], 'id');
  if (!isIdSourceResource(op.resource)) return { value: fromData };
  const resource = op.resource;
  const list = operations().find((o) => o.resource === resource && o.kind === 'list');
  let listed = '';
  if (list) {
    const found = await findByListing(run, step, list, key);
    if (found.id !== undefined) {
      // Where the answer shows ids as well, each must name the record made from its own item.
      if (idValue(fromData) !== undefined) {
        const passed = String(fromData) === String(found.id);
        run.result.assertions.push(assertion({
          clause: 'WRITE.READ_BACK', check: 'created-ids', exchange: run.indexOf(answer), passed,
          message: passed ? `the answer's id for item ${n} is the id its record is listed under`
            : `the answer gave item ${n} (${describeKey(key)}) the id ${JSON.stringify(fromData)}, but its record is listed under ${JSON.stringify(found.id)}`,
        }));
      }
      return { value: found.id };
    }
    listed = found.why;
  }
  if (fromData !== undefined) return { value: fromData };
  const { ids, secrets } = run.services;
  if (ids?.has(resource)) {
    const got = await ids.learn(resource, key, run.throttledAnswers);
    if ('id' in got) return { value: /^\d+$/.test(got.id) && Number.isSafeInteger(Number(got.id)) ? Number(got.id) : got.id };
    return { why: secrets.scrub(got.problem), unlock: scrubbed(run, got.unlock) };
  }
  return {
    why: `step "${step.name}" created ${aRecord(resource)} (${describeKey(key)}) and nothing showed its id: ${records.length ? 'the answer\'s data gave none for it' : 'the answer has no data'}${listed ? `, ${listed}` : ''}, and the profile gives no ${idSourceKey(resource)}`,
    unlock: idSourceUnlock(resource),
  };
}

/** A create item's key: the fields that name the record it creates (spec/schemas x-rdx-id-key). */
function keyOf(resource: string, item: Record<string, unknown>): RecordKey {
  return Object.fromEntries(resourceInfo(resource).idKey.map((f) => [f, String(item[f] ?? '')]));
}

/** The id of the one listed record with the key, asking the list filtered by the key fields it takes. */
async function findByListing(run: CaseRun, step: StepDef, list: Operation, key: RecordKey): Promise<{ id?: unknown; why: string }> {
  const url = new URL(run.services.baseUrl.replace(/\/$/, '') + list.path);
  const filters = Object.entries(key).filter(([field]) => list.query.includes(field));
  for (const [field, value] of filters) url.searchParams.append(field, value);
  const what = `GET ${list.path}${filters.length ? ` filtered by ${filters.map(([f]) => f).join(' and ')}` : ''}`;
  const label = `find the id of what "${step.name}" created`;
  const first = await send(run, { ...step, name: label, auth: 'default' }, await tokenGet(run, url.toString()));
  if (first.transportError || outcomeOf(first) !== 'success') return { why: `${what} gave no list (status ${first.response?.status ?? 'none'})` };
  const pages = [first, ...(await walk(run, { ...step, name: label, paginate: { maxPages: 10 } }, first))];
  const ids = new Set(pages.flatMap((e) => (Array.isArray(bodyObject(e)?.['data']) ? (bodyObject(e)?.['data'] as unknown[]) : []))
    .filter((r) => matchesKey(r, key)).map((r) => readPath(r, 'id')).filter((id) => idValue(id) !== undefined));
  if (ids.size === 1) return { id: [...ids][0], why: '' };
  return { why: `${what} listed ${ids.size === 0 ? 'no record with its id' : `${ids.size} records with its key`}` };
}

/** Learns the {id} of every ATS job offer the step addresses ({$jobOfferId: reference}) from the profile's id source. */
export async function learnJobOfferIds(run: CaseRun, step: StepDef): Promise<void> {
  const { ids, ledger, secrets } = run.services;
  if (!ids?.has('job-offer')) return;
  const references: unknown[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      if ('$jobOfferId' in value) references.push(run.resolve((value as Record<string, unknown>)['$jobOfferId']));
      else Object.values(value).forEach(visit);
    }
  };
  visit([step.params, step.query, step.body, step.headers]);
  // Only what the run created has an id to learn; a reference it made up (an unknown job offer) is sent as it is.
  for (const reference of references.map(String).filter((r) => ledger.has('job-offer', r))) {
    const got = await ids.learn('job-offer', { reference }, run.throttledAnswers);
    if ('problem' in got) throw new Stop('skip', secrets.scrub(got.problem), scrubbed(run, got.unlock));
  }
}

function scrubbed(run: CaseRun, unlock: Unlock): Unlock {
  return { unlock: unlock.unlock, how: run.services.secrets.scrub(unlock.how) };
}
