// The import layers of the harness and the simulator (ARCHITECTURE.md draws them), as a whitelist: each layer names
// what it may import, and an import no rule below allows fails `npm run lint:layers` (part of `npm test`) as
// `not-in-allowed`. So a new folder belongs to no layer and may import nothing of ours until it is given one here.
// Test tooling (test/, bench/, any *.test.ts) may assemble anything, like a composition root; the code it tests may
// not import it. test/layers.test.ts plants files that break each kind of rule and expects this file to catch them.
const layer = {
  specModel: '^src/(spec|data)/',
  core: '^src/(core/|errors[.]ts$|version[.]ts$)',
  http: '^src/http/',
  config: '^src/config/',
  checks: '^src/checks/',
  engine: '^src/engine/',
  reporters: '^src/reporters/',
  container: '^src/container/',
  simulator: '^simulator/',
  /**
   * The wiring of the two sides (embeddedSimulator, startSimulator, conformanceRunner): a layer of its own, above the
   * harness and the simulator and below the entry points, so only an entry point (or a test) can reach it.
   */
  compose: '^src/compose[.]ts$',
  /** The entry points, which start what compose wires: the CLI, the programmatic API, the self-check. */
  roots: '^src/(cli/|index[.]ts$|selfcheck/)',
  /** Build-only code (scripts/): run by `npm run build`, never shipped. */
  build: '^scripts/(?!doc(s|-samples)[.]ts$)',
  /** The docs generators (scripts/docs.ts, doc-samples.ts): they read the product to write docs/, and never ship. */
  docs: '^scripts/doc(s|-samples)[.]ts$',
};
const tests = '([.]test[.]ts$|^test/|^bench/)';
/** The homes of the packages one layer alone may import (onlyIn). */
const layerPath = { 'src/http': '^src/http/', 'src/cli': '^src/cli/', 'src/container': '^src/container/' };
const any = (...names) => names.map((n) => `(${layer[n]})`).join('|');

/**
 * A package only one layer may import: its home. The network goes through one client (timeouts, size cap, redaction),
 * flags are parsed in one place, and testcontainers is loaded only when --image asks for it.
 */
const onlyIn = (pkg, home, why) => ({
  name: `${pkg}-only-in-${home}`,
  comment: why,
  severity: 'error',
  from: { path: '^(src|simulator|scripts)/', pathNot: `(${layerPath[home]})|${tests}` },
  to: { path: `(^|/)node_modules/(@types/)?${pkg}/` },
});

/** A layer may import itself and the layers it names, nothing else of ours. */
const mayImport = (name, others, why) => ({
  comment: `${name}: ${why}`,
  from: { path: layer[name], pathNot: tests },
  to: { path: any(name, ...others) },
});

module.exports = {
  allowed: [
    { comment: 'Node builtins and installed packages (package.json and test/packaging decide which may ship).', from: {}, to: { dependencyTypes: ['core'] } },
    { comment: 'Node builtins and installed packages.', from: {}, to: { path: '(^|/)node_modules/' } },
    { comment: 'A package subpath its exports map hides from the resolver (@faker-js/faker/locale/en).', from: {}, to: { couldNotResolve: true, path: '^[@a-z]' } },
    mayImport('specModel', [], 'the spec model (src/spec, src/data) is the bottom: it reads spec/ and imports nothing else of ours.'),
    mayImport('core', ['specModel'], 'src/core holds the shared vocabulary (Exchange, CaseResult, readPath, the seams, escapeTerminal); it sits on the spec model only.'),
    mayImport('http', ['specModel', 'core'], 'the HTTP client knows exchanges, not the engine.'),
    mayImport('config', ['specModel', 'core', 'http'], 'the target profile sits under the checks and the engine.'),
    mayImport('checks', ['specModel', 'core', 'http', 'config'], 'checks judge exchanges; the engine calls them, never the reverse.'),
    mayImport('engine', ['specModel', 'core', 'http', 'config', 'checks'], 'the engine starts an embedded target only through the StartEmbeddedTarget it is given, and never reads the reporters.'),
    mayImport('reporters', ['specModel', 'core', 'http', 'config', 'checks', 'engine'], 'reporters turn a RunReport into files.'),
    mayImport('container', ['specModel', 'core', 'http', 'config'], 'starting a container target needs the profile, not the engine.'),
    mayImport('simulator', ['specModel', 'core'], 'the simulator serves the API from the spec model; the dashboard runs conformance only through the ConformanceRunner it is given.'),
    mayImport('compose', ['specModel', 'core', 'config', 'engine', 'reporters', 'simulator'],
      'src/compose.ts makes the two seams: the simulator as the engine\'s embedded target, the harness as the dashboard\'s runner.'),
    mayImport('roots', ['specModel', 'core', 'http', 'config', 'checks', 'engine', 'reporters', 'container', 'simulator', 'compose'],
      'the entry points (src/cli, src/index.ts, src/selfcheck) start the harness and the simulator as src/compose.ts wires them.'),
    mayImport('build', ['specModel', 'core'], 'the build reads the spec model (the dashboard\'s columns, the precompiled validators).'),
    mayImport('docs', ['specModel', 'core', 'http', 'config', 'checks', 'engine', 'reporters', 'container', 'simulator', 'compose', 'roots'],
      'the docs generators read the product (the CLI\'s options, the profile schema, the personas, real runs); nothing of the product imports them.'),
    {
      comment: 'Test tooling and benchmarks may assemble anything of ours, like a composition root.',
      from: { path: tests },
      to: { path: '^(src|simulator|test|bench|scripts)/' },
    },
  ],
  allowedSeverity: 'error',
  forbidden: [
    onlyIn('undici', 'src/http', 'undici only in src/http: every request of the harness goes through its HTTP client.'),
    onlyIn('yargs', 'src/cli', 'yargs only in src/cli: flags are parsed by the CLI; the layers below take values.'),
    onlyIn('testcontainers', 'src/container', 'testcontainers only in src/container, loaded only when --image is given.'),
    {
      name: 'no-circular',
      comment: 'Modules that import each other (types included) cannot be read, tested or moved one at a time.',
      severity: 'error',
      from: { path: '^(src|simulator|scripts)/', pathNot: tests },
      to: { circular: true },
    },
    {
      name: 'no-test-imports',
      comment: 'A test file is run by importing it: a module that imports one runs its tests too. Shared fixtures live in test/support/ (or a non-test module beside the tests).',
      severity: 'error',
      from: {},
      to: { path: '[.]test[.](ts|js)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|build|node_modules)/' },
    // Type-only imports count: a type circle is a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
