// The import layers of the harness and the simulator (ARCHITECTURE.md draws them). `npm run lint:layers` (part of
// `npm test`) fails on any import that points the wrong way, so the harness and the simulator cannot grow into
// each other again. Tests and benchmarks may assemble anything, like a composition root; the code they test may not.
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
  /** Where the harness and the simulator are wired together: the CLI, the programmatic API, the self-check. */
  roots: '^src/(cli/|index[.]ts$|selfcheck/)',
};
const ours = '^(src|simulator)/';
const tests = '([.]test[.]ts$|^test/)';
const any = (...names) => names.map((n) => `(${layer[n]})`).join('|');

/** A layer may import itself and the layers below it, nothing else of ours. */
const pointsDown = (name, below, why) => ({
  name: `${name}-points-down`,
  comment: why,
  severity: 'error',
  from: { path: layer[name], pathNot: tests },
  to: { path: ours, pathNot: any(name, ...below) },
});

module.exports = {
  forbidden: [
    pointsDown('specModel', [], 'The spec model (src/spec, src/data) is the bottom: it reads spec/ and imports nothing else of ours.'),
    pointsDown('core', ['specModel'], 'src/core holds the shared vocabulary (Exchange, CaseResult, readPath, the seams); it sits on the spec model only.'),
    pointsDown('http', ['specModel', 'core'], 'The HTTP client knows exchanges, not the engine.'),
    pointsDown('config', ['specModel', 'core', 'http'], 'The target profile sits under the checks and the engine.'),
    pointsDown('checks', ['specModel', 'core', 'http', 'config'], 'Checks judge exchanges; the engine calls them, never the reverse.'),
    pointsDown('engine', ['specModel', 'core', 'http', 'config', 'checks'], 'The engine starts an embedded target only through the StartEmbeddedTarget it is given.'),
    pointsDown('reporters', ['specModel', 'core', 'http', 'config', 'checks', 'engine'], 'Reporters turn a RunReport into files.'),
    pointsDown('container', ['specModel', 'core', 'http', 'config'], 'Starting a container target needs the profile, not the engine.'),
    pointsDown('simulator', ['specModel', 'core'], 'The simulator serves the API from the spec model; the dashboard runs conformance only through the ConformanceRunner it is given.'),
    {
      name: 'only-roots-import-the-simulator',
      comment: 'Only the composition roots (src/cli, src/index.ts, src/selfcheck) wire the simulator into the harness.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${layer.roots}|${tests}` },
      to: { path: layer.simulator },
    },
    {
      name: 'nothing-imports-a-root',
      comment: 'The composition roots are the top: nothing but another root (or a test) imports them.',
      severity: 'error',
      from: { path: ours, pathNot: `${layer.roots}|${tests}` },
      to: { path: layer.roots },
    },
    {
      name: 'no-circular',
      comment: 'Modules that import each other (types included) cannot be read, tested or moved one at a time.',
      severity: 'error',
      from: { path: ours, pathNot: tests },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    // Type-only imports count: a type circle is a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
