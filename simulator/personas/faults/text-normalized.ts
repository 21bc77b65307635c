import { alterStoredText } from '../support.js';
import type { Persona } from '../types.js';

export const textNormalized: Persona = {
  name: 'text-normalized',
  kind: 'fault',
  description: 'Text is stored in Unicode normalisation form C: an "e" followed by a combining acute comes back as "é", another code point sequence than the one written.',
  breaks: ['WRITE.READ_BACK'],
  hooks: { beforeHandler: (ctx) => alterStoredText(ctx, (text) => text.normalize('NFC')) },
};
