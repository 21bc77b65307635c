// A self-check worker (pool.ts forks it): runs the persona each message names and sends back its PersonaRun; ends
// when the pool disconnects.
import { personaByName } from '../../simulator/personas/index.js';
import { runPersonaBoth, type PersonaRun } from './index.js';
import type { RunReply, RunRequest } from './pool.js';

process.on('message', (request: RunRequest) => {
  const persona = request.persona === undefined ? undefined : personaByName(request.persona);
  const reply = (message: RunReply<PersonaRun>): void => {
    process.send?.(message);
  };
  if (request.persona !== undefined && !persona) {
    reply({ id: request.id, error: `no persona named ${request.persona}` });
    return;
  }
  runPersonaBoth(persona, request.declare, request.both).then(
    (run) => reply({ id: request.id, run }),
    (error: unknown) => reply({ id: request.id, error: (error as Error).stack ?? String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
