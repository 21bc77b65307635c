import { plannedRuns, mostlyWaits } from './index.js';
import { plannedRunTests } from '../../test/support/selfcheck.js';

describe('self-check: the personas that rate-limit, each run in a process of its own', function () {
  // A rate-limited persona's run waits out 429s for 40 to 100 s at both concurrencies (more under coverage and load).
  this.timeout(400_000);
  plannedRunTests(plannedRuns().filter((p) => mostlyWaits(p.persona)));
});
