// Observations: what a case saw of an open point of the spec (an interpretation), compared with what the profile
// declares.
import { interpretation } from '../spec/index.js';
import type { Observation } from '../core/results.js';
import type { CaseRun } from './case-run.js';

/** Records what the case observed for an interpretation (or one key of it); a declared value that differs is a SHOULD failure. */
export function observe(run: CaseRun, key: string, value: unknown, exchange: number): void {
  const [id = key, sub] = key.split('.');
  const entry = interpretation(id);
  const obs: Observation = { interpretation: id, ...(sub ? { key: sub } : {}), value, caseId: run.c.id };
  const whole = entry.key ? run.services.profile.declared[entry.key] : undefined;
  // A declared map (e.g. statusCodes) is compared key by key; a declared scalar with the plain observation.
  const declared = sub ? (whole && typeof whole === 'object' ? (whole as Record<string, unknown>)[sub] : undefined) : whole;
  if (declared !== undefined && value !== undefined) {
    const same = String(declared) === String(value);
    run.result.assertions.push({
      clause: 'PROFILE.DECLARED_MATCHES', level: 'SHOULD', passed: same, check: 'declared-matches', exchange,
      message: same ? `${entry.key}${sub ? `.${sub}` : ''}: declared ${JSON.stringify(declared)}, observed the same`
        : `${entry.key}${sub ? `.${sub}` : ''}: the profile declares ${JSON.stringify(declared)} but the implementation did ${JSON.stringify(value)}`,
    });
  }
  run.result.observations.push(obs);
}
