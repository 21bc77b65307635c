import { alterStoredText } from '../support.js';
import type { Persona } from '../types.js';

export const longTextTruncated: Persona = {
  name: 'long-text-truncated',
  kind: 'fault',
  description: 'Text is stored in 255-character columns: a longer value is accepted and silently cut, where refusing it with an error body would have been legal.',
  breaks: ['WRITE.READ_BACK'],
  hooks: { beforeHandler: (ctx) => alterStoredText(ctx, (text) => Array.from(text).slice(0, 255).join('')) },
};
