// A finding as a vendor keeps it: the shrunk sequence as a YAML case of its own, its references made from the run's
// tag again so that it runs again on any run. (The curl script of the sequence is the reporters': its exchanges.)
import { stringify } from 'yaml';
import type { CaseDef } from '../suite.js';
import type { Session } from './session.js';

/** The strings of a value with the run's tag written as the template it came from. */
function retagged(value: unknown, tag: string): unknown {
  if (typeof value === 'string') return value.split(tag).join('${run.tag}');
  if (Array.isArray(value)) return value.map((v) => retagged(v, tag));
  if (value && typeof value === 'object') {
    // A {$literal} stays as written: its text is what was sent.
    if ('$literal' in value) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, retagged(v, tag)]));
  }
  return value;
}

/** The YAML case that replays a sequence (suites/README.md), named after the explore case and the seed. */
export function regressionCase(c: CaseDef, s: Session, seed: number): string {
  const steps = s.steps.map((step) => retagged(step, s.run.gen.runTag));
  const failed = [...new Set(s.run.result.assertions.filter((a) => !a.passed).map((a) => a.clause))];
  const doc = {
    format: 1,
    cases: [{
      id: `${c.id}.seed-${seed}-sequence-${s.seq}`,
      title: `Regression: the sequence exploration found (${c.id}, seed ${seed}) leaves the store as the spec says`,
      level: failed.some((id) => s.run.result.assertions.find((a) => a.clause === id)?.level === 'MUST') ? 'MUST' : 'SHOULD',
      clauses: failed.length ? failed : c.clauses,
      tags: [...c.tags, 'regression'], tier: c.tier, ...(c.alone ? { alone: true } : {}),
      steps,
    }],
  };
  return stringify(doc, { lineWidth: 0 });
}
