// A mocha reporter for scripts/test-timings.mjs: the spec reporter's output, plus each test file's wall time (from
// its first top-level suite's start to its last one's end, hooks included) written as JSON to reporterOptions.output.
/* eslint-disable @typescript-eslint/no-require-imports -- mocha loads a reporter with require() */
const { writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const Mocha = require('mocha');

const { EVENT_RUN_BEGIN, EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const output = options.reporterOptions?.output;
    const files = new Map();
    let started = 0;
    const began = new Map();
    runner.on(EVENT_RUN_BEGIN, () => { started = performance.now(); });
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent?.root && suite.file) began.set(suite, performance.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const at = began.get(suite);
      if (at === undefined) return;
      const entry = files.get(suite.file) ?? { ms: 0, tests: 0 };
      entry.ms += performance.now() - at;
      entry.tests += suite.total();
      files.set(suite.file, entry);
    });
    runner.once(EVENT_RUN_END, () => {
      if (!output) return;
      const perFile = [...files].map(([file, { ms, tests }]) => ({ file, ms: Math.round(ms), tests }));
      writeFileSync(output, `${JSON.stringify({ totalMs: Math.round(performance.now() - started), files: perFile }, null, 2)}\n`);
    });
  }
}

module.exports = TimingReporter;
