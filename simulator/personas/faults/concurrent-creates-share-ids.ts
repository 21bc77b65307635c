import { setTimeout as sleep } from 'node:timers/promises';
import type { ApplicationStepRecord, Store } from '../../store.js';
import { dataRecords, isSuccess } from '../support.js';
import type { JsonObject, Persona, RequestContext } from '../types.js';

/** The await between reading MAX(id) and inserting: long enough for a batch sent at the same moment to land in it. */
const WINDOW_MS = 15;
/** Finished batches remembered per simulator: only those that finished while another was in its window matter. */
const KEPT = 16;

interface Ledger {
  /** Batches finished so far. */
  finished: number;
  /** The ids the latest finished batches answered, newest last, each with its place in `finished`. */
  recent: { n: number; ids: number[] }[];
}

const ledgers = new WeakMap<Store, Ledger>();
/** Per request: how many batches had finished when it read MAX(id). */
const started = new WeakMap<RequestContext, number>();

function ledgerOf(store: Store): Ledger {
  let ledger = ledgers.get(store);
  if (!ledger) {
    ledger = { finished: 0, recent: [] };
    ledgers.set(store, ledger);
  }
  return ledger;
}

/** A batch of several steps: one step is a plain INSERT with an auto-increment id; only several take the bulk path. */
const isBulkStepBatch = (ctx: RequestContext): boolean =>
  ctx.operation?.operationId === 'batchCreateApplicationSteps' && Array.isArray(ctx.body) && ctx.body.length > 1;

export const concurrentCreatesShareIds: Persona = {
  name: 'concurrent-creates-share-ids',
  kind: 'fault',
  forExploration: true,
  description: 'A batch of several application steps is bulk-inserted with ids from MAX(id) read before an await: of two such batches created at the same moment, the later one is given the same ids and overwrites the steps of the earlier one.',
  breaks: ['WRITE.READ_BACK'],
  acrossCases: 'only batches of several application steps in flight at the same moment collide: one case at a time none do; side by side, a case whose batch overlaps another case\'s loses or overwrites records',
  hooks: {
    async beforeHandler(ctx) {
      if (!isBulkStepBatch(ctx)) return;
      started.set(ctx, ledgerOf(ctx.store).finished);
      await sleep(WINDOW_MS);
    },
    afterHandler(ctx, res) {
      const at = started.get(ctx);
      if (!isBulkStepBatch(ctx) || at === undefined || !isSuccess(res)) return;
      const ledger = ledgerOf(ctx.store);
      // The first batch that finished while this one waited read the same MAX(id): its ids are this batch's too.
      const earlier = ledger.recent.find((batch) => batch.n > at);
      const records = dataRecords(res);
      const table = ctx.store.applicationSteps;
      records.forEach((record: JsonObject, i) => {
        const own = record['id'];
        const taken = earlier?.ids[i];
        if (typeof own !== 'number' || taken === undefined || !table.has(taken)) return;
        table.replace(taken, { ...record, id: taken } as ApplicationStepRecord);
        table.remove(own);
        record['id'] = taken;
      });
      ledger.finished += 1;
      ledger.recent.push({ n: ledger.finished, ids: records.map((r) => r['id']).filter((id): id is number => typeof id === 'number') });
      if (ledger.recent.length > KEPT) ledger.recent.shift();
    },
  },
};
