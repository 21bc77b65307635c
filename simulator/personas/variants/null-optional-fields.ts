import { resourceInfo } from '../../../src/spec/index.js';
import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

export const nullOptionalFields: Persona = {
  name: 'null-optional-fields',
  kind: 'variant',
  description: 'An optional field without a value is returned as null instead of being left out.',
  interprets: ['ABSENT_OPTIONAL_FIELD'],
  hooks: {
    afterHandler(ctx, res) {
      const resource = ctx.operation?.resource;
      if (!resource || resource === 'token' || resource === 'job-offer-attribute') return;
      const info = resourceInfo(resource);
      const optional = info.fields.map((f) => f.name).filter((name) => !info.required.includes(name));
      for (const record of dataRecords(res)) for (const name of optional) record[name] ??= null;
    },
  },
};
