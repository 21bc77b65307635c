import type { Persona } from '../types.js';

export const twoChallenges: Persona = {
  name: 'two-challenges',
  kind: 'variant',
  description: 'A 401 offers two challenges, Basic then Bearer, in one WWW-Authenticate header (RFC 9110 §11.6.1 allows a list).',
  interprets: [],
  hooks: {
    afterHandler(_ctx, res) {
      const challenge = res.headers['www-authenticate'];
      if (challenge !== undefined) res.headers['www-authenticate'] = `Basic realm="rdx", ${challenge}`;
    },
  },
};
