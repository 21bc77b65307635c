import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

function lower(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const attribute of list as unknown[]) {
    if (typeof attribute === 'object' && attribute !== null && typeof (attribute as JsonObject)['name'] === 'string') {
      (attribute as JsonObject)['name'] = ((attribute as JsonObject)['name'] as string).toLowerCase();
    }
  }
}

export const attributeNamesLowercased: Persona = {
  name: 'attribute-names-lowercased',
  kind: 'fault',
  description: 'Attribute names are stored in lower case: Work_Mode is read back as work_mode.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    beforeHandler(ctx) {
      if (ctx.operation?.operationId === 'batchCreateJobOfferAttributes') lower(ctx.body);
      if (ctx.operation?.resource === 'job-offer' && kindIs(ctx, 'batchCreate') && Array.isArray(ctx.body)) {
        for (const offer of ctx.body as unknown[]) lower((offer as JsonObject | null)?.['attributes']);
      }
      if (ctx.operation?.resource === 'job-offer' && kindIs(ctx, 'replace', 'patch')) lower((ctx.body as JsonObject | null)?.['attributes']);
    },
  },
};
