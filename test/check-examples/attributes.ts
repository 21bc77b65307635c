// Examples of the attribute checks (src/checks/attributes.ts).
import type { Examples } from './support.js';

const offer = (attributes: unknown[]): unknown => ({ message: 'ok', data: [{ reference: 'JO-1', title: 'Backend engineer', attributes }] });
const args = { present: [{ name: 'level', value: 'senior' }], absent: ['remote'] };

export const examples: Examples = {
  'attributes-match': [
    { verdict: 'pass', title: 'The job offer carries the attribute written and not the one deleted.', operationId: 'getJobOffer', args, answer: { status: 200, body: offer([{ name: 'level', value: 'senior' }]) } },
    { verdict: 'fail', title: 'The deleted attribute is still there.', operationId: 'getJobOffer', args, answer: { status: 200, body: offer([{ name: 'level', value: 'senior' }, { name: 'remote', value: 'yes' }]) } },
  ],
};
