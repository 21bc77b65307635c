// The composition root: the one place the harness and the simulator meet. The engine starts an embedded target only
// through the StartEmbeddedTarget it is given, and the dashboard runs conformance only through the ConformanceRunner
// it is given; both are made here, for `rdx run`, `rdx simulate`, the self-check and the programmatic API.
// Each side is imported only when used, so a simulator that is never asked to run stays light, and the reverse.
import type { ConformanceRunner } from './core/conformance.js';
import type { StartEmbeddedTarget } from './core/embedded.js';
import type { Simulator, SimulatorOptions } from '../simulator/index.js';

/** Simulator options a run may add to the embedded one (personas, page size, …); the run owns the rest. */
export type EmbeddedSimulatorOptions = Omit<SimulatorOptions, 'host' | 'port' | 'seed' | 'clientId' | 'clientSecret'>;

/** The bundled simulator as a run's embedded target: in-process, on a free loopback port. */
export function embeddedSimulator(options: EmbeddedSimulatorOptions = {}): StartEmbeddedTarget {
  return async ({ seed, clientId, clientSecret }) => {
    const { startSimulator } = await import('../simulator/index.js');
    return startSimulator({ ...options, host: '127.0.0.1', port: 0, seed, clientId, clientSecret });
  };
}

/** The simulator with the harness behind its dashboard's "Run conformance" (what `rdx simulate` starts). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const { startSimulator: start } = await import('../simulator/index.js');
  return start({ conformance: conformanceRunner(), ...options });
}

/** The dashboard's "Run conformance": the whole harness against the simulator as it is configured at that moment. */
export function conformanceRunner(): ConformanceRunner {
  return async (request) => {
    const [{ runConformance }, { defaults }, { writeReports }] = await Promise.all([
      import('./engine/run.js'), import('./config/profile.js'), import('./reporters/files.js'),
    ]);
    const { report } = await runConformance({
      profile: {
        ...defaults(),
        baseUrl: request.baseUrl,
        clientId: request.clientId,
        clientSecret: request.clientSecret,
        seed: request.seed,
        declared: request.declared,
        fixtures: { expiredToken: request.expiredToken, atsJobOfferIds: request.atsJobOfferIds },
        ...(request.idSources ? { idSources: request.idSources } : {}),
        // The simulator's data is its own, reset at will: the irreversible tier runs too, so the run is complete.
        allowIrreversible: true,
      },
      reporter: 'none',
    });
    return {
      runId: report.run.id,
      summary: report.summary,
      cases: report.cases,
      writeReports: (root) => writeReports(report, root).dir,
    };
  };
}
