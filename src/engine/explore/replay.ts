// A finding as a vendor keeps it: the shrunk sequence as a YAML case of its own, its references made from the run's
// tag again so that it runs again on any run. (The curl script of the sequence is the reporters': its exchanges.)
import { stringify } from 'yaml';
import type { CaseDef } from '../suite.js';
import type { Session } from './session.js';

/**
 * A value with the run's tag written as the template it came from, so the case makes references of its own run:
 * a {$literal} is opened, and only its strings that hold `\${` stay literal (they are the values sent as written).
 */
function retagged(value: unknown, tag: string, inLiteral = false): unknown {
  if (typeof value === 'string') {
    if (inLiteral && value.includes('${')) return { $literal: value };
    return value.split(tag).join('${run.tag}');
  }
  if (Array.isArray(value)) return value.map((v) => retagged(v, tag, inLiteral));
  if (value && typeof value === 'object') {
    if ('$literal' in value && Object.keys(value).length === 1) return retagged((value as { $literal: unknown }).$literal, tag, true);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, retagged(v, tag, inLiteral)]));
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
