import { alterStoredText } from '../support.js';
import type { Persona } from '../types.js';

export const astralCharactersReplaced: Persona = {
  name: 'astral-characters-replaced',
  kind: 'fault',
  description: 'Text is stored in a three-byte UTF-8 column: every character outside the Basic Multilingual Plane (emoji, musical symbols) comes back as U+FFFD.',
  breaks: ['WRITE.READ_BACK'],
  hooks: { beforeHandler: (ctx) => alterStoredText(ctx, (text) => text.replace(/[\u{10000}-\u{10FFFF}]/gu, '\uFFFD')) },
};
