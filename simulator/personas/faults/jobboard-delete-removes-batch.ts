import type { Store } from '../../store.js';
import { dataRecords, isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

/** The ids each jobboard job offer was created with in one batch, per store (a simulator's own). */
const batches = new WeakMap<Store, Map<number, number[]>>();

export const jobboardDeleteRemovesBatch: Persona = {
  name: 'jobboard-delete-removes-batch',
  kind: 'fault',
  forExploration: true,
  description: 'DELETE /jobboard/job-offers/{id} removes every jobboard job offer created in the same batch as the one named (the import it came with is deleted whole).',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.resource !== 'jobboard-job-offer' || !isSuccess(res)) return;
      let groups = batches.get(ctx.store);
      if (!groups) batches.set(ctx.store, (groups = new Map()));
      if (kindIs(ctx, 'batchCreate')) {
        const ids = dataRecords(res).map((r) => r['id']).filter((id): id is number => typeof id === 'number');
        for (const id of ids) groups.set(id, ids);
        return;
      }
      if (ctx.operation.operationId !== 'deleteJobboardJobOffer') return;
      const named = Number(ctx.params['id']);
      for (const id of groups.get(named) ?? []) if (id !== named) ctx.store.jobboardJobOffers.remove(id);
    },
  },
};
