// Attributes live inside the job offer: adding, updating and deleting one is read back through GET of the offer.
import { sameValue } from './records.js';
import { bodyObject, defineCheck, fail, judge, show, type CheckContext } from './registry.js';

const clauseArg = (ctx: CheckContext, fallback: string): string => (typeof ctx.args['clause'] === 'string' ? ctx.args['clause'] : fallback);

export const attributesMatch = defineCheck({
  id: 'attributes-match',
  description: 'The job offer in data carries each attribute of `present` with its value and none named in `absent`; other attributes and their order are not judged.',
  clauses: ['WRITE.READ_BACK', 'WRITE.PATCH_PARTIAL', 'DELETE.REMOVES', 'REQUEST.REQUIRED_ON_CREATE', 'BATCH.PARTIAL_SUCCESS'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'WRITE.READ_BACK');
    const offer = (bodyObject(ctx.exchange)?.['data'] as unknown[] | undefined)?.[0];
    if (!offer || typeof offer !== 'object') return [fail(clause, `no job offer in data (got ${show(bodyObject(ctx.exchange))})`)];
    const raw = (offer as Record<string, unknown>)['attributes'];
    const attributes = Array.isArray(raw) ? (raw as Record<string, unknown>[]) : [];
    const present = (ctx.args['present'] as { name: string; value: unknown }[] | undefined) ?? [];
    const absent = (ctx.args['absent'] as string[] | undefined) ?? [];
    const problems = [
      ...present.flatMap(({ name, value }) => {
        const found = attributes.find((a) => a?.['name'] === name);
        if (!found) return [`attribute ${show(name)} is missing`];
        return sameValue(value, found['value']) ? [] : [`attribute ${show(name)} has value ${show(found['value'], 60)}, expected ${show(value, 60)}`];
      }),
      ...absent.filter((name) => attributes.some((a) => a?.['name'] === name)).map((name) => `attribute ${show(name)} is still there`),
    ];
    return [judge(clause, problems.length === 0, `${present.length} attribute(s) as written${absent.length ? `, ${absent.length} gone` : ''}`,
      `${problems.join('; ')} (attributes: ${show(attributes.map((a) => a?.['name']), 120)})`)];
  },
});
