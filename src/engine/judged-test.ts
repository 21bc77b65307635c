// Kept out of run.ts so that the public declarations (src/index.ts reaches run.ts for its types) never import
// mocha's types, which a consumer would then need as @types/mocha.
import type Mocha from 'mocha';
import type { CaseResult } from '../core/results.js';

/** A mocha test of a case, carrying the case's result for reporters that show more than pass/fail (src/reporters/console.ts). */
export type JudgedTest = Mocha.Test & { rdx?: CaseResult };
