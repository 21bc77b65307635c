import { alterStoredText } from '../support.js';
import type { Persona } from '../types.js';

export const textTrimmed: Persona = {
  name: 'text-trimmed',
  kind: 'fault',
  description: 'Text is stored trimmed: spaces and tabs at either end of a value written are lost, and the answer still says it was accepted.',
  breaks: ['WRITE.READ_BACK'],
  hooks: { beforeHandler: (ctx) => alterStoredText(ctx, (text) => text.trim()) },
};
