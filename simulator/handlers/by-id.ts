// The handlers of a resource whose records the API addresses by a numeric id (application steps, jobboard activities,
// jobboard job offers): create in a batch, get, replace, patch and delete behave the same over each one's table, so
// they are written once here. What differs (the job offers' reference ids, the attributes inside them, the lists'
// filters) keeps a handler of its own.
import type { RequestContext, SimResponse } from '../context.js';
import { dataReply, messageReply } from '../envelope.js';
import type { Table } from '../table.js';
import { batchCreate, notFound, numericId, type Handler, type Noun } from './common.js';

export interface ByIdResource<R extends { id: number }> {
  noun: Noun;
  /** The noun as a message starts it ("Application step found."). */
  title: string;
  table(ctx: RequestContext): Table<number, R>;
}

export interface ByIdHandlers {
  batchCreate: Handler;
  get: Handler;
  replace: Handler;
  patch: Handler;
  remove: Handler;
}

export function byIdHandlers<R extends { id: number }>(resource: ByIdResource<R>): ByIdHandlers {
  const find = (ctx: RequestContext): R => {
    const id = numericId(ctx, resource.noun);
    const record = resource.table(ctx).get(id);
    if (!record) throw notFound(resource.noun, id);
    return record;
  };
  return {
    batchCreate: (ctx): SimResponse => batchCreate(ctx, resource.noun, (item) => resource.table(ctx).insert((id) => ({ id, ...item }) as unknown as R)),
    get: (ctx) => dataReply(`${resource.title} found.`, [find(ctx)]),
    replace: (ctx) => {
      const id = find(ctx).id;
      const next = { id, ...(ctx.body as object) } as R;
      resource.table(ctx).replace(id, next);
      return dataReply(`${resource.title} replaced.`, [next]);
    },
    patch: (ctx) => {
      const current = find(ctx);
      const next: R = { ...current, ...(ctx.body as Partial<R>), id: current.id };
      resource.table(ctx).replace(current.id, next);
      return dataReply(`${resource.title} updated.`, [next]);
    },
    remove: (ctx) => {
      const id = numericId(ctx, resource.noun);
      if (!resource.table(ctx).remove(id)) throw notFound(resource.noun, id);
      return messageReply(`${resource.title} deleted.`);
    },
  };
}
