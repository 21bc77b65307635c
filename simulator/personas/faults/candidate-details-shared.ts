import type { ApplicationStepRecord } from '../../store.js';
import { dataRecords, isSuccess, kindIs, storedRecord } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** What the implementation keeps once per candidate (a candidates table keyed by candidate_ats_id), not per step. */
const CANDIDATE_FIELDS = ['candidate_mail', 'candidate_phone', 'candidate_creation_date'];

/** The candidate fields a written item carries (a value, not null). */
function carried(item: unknown): JsonObject {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return {};
  const fields = item as JsonObject;
  return Object.fromEntries(CANDIDATE_FIELDS.filter((f) => fields[f] !== undefined && fields[f] !== null).map((f) => [f, fields[f]]));
}

export const candidateDetailsShared: Persona = {
  name: 'candidate-details-shared',
  kind: 'fault',
  forExploration: true,
  description: 'The candidate\'s mail, phone and creation date are kept once per candidate_ats_id: writing them on one application step (create, PUT or PATCH) rewrites them on every other step of that candidate.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.resource !== 'application-step' || !isSuccess(res) || !kindIs(ctx, 'batchCreate', 'replace', 'patch')) return;
      // The steps written: a batch's from its answer, a PUT's or PATCH's as stored now, each with what it carried.
      const written = kindIs(ctx, 'batchCreate')
        ? dataRecords(res).map((record) => ({ record, details: carried(record) }))
        : [{ record: storedRecord(ctx), details: carried(ctx.body) }];
      for (const { record, details } of written) {
        if (!record || Object.keys(details).length === 0) continue;
        for (const other of ctx.store.applicationSteps.values()) {
          if (other.id === record['id'] || other.candidate_ats_id !== record['candidate_ats_id']) continue;
          ctx.store.applicationSteps.replace(other.id, { ...other, ...details } as ApplicationStepRecord);
        }
      }
    },
  },
};
