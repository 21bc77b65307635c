// Every built-in check, registered on import. A test (examples.test.ts) checks that each file of src/checks/ is
// listed here and has its pass and fail examples in examples/.
import './envelope.js';
import './records.js';
import './auth.js';
import './batch.js';
import './lists.js';
import './http.js';
import './pages.js';
import './refusals.js';
import './attributes.js';
import './model.js';

export { allChecks, getCheck, globalChecks, type Check, type CheckContext, type Judgement } from './registry.js';
