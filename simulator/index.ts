// The reference simulator of the Recruitment Data Exchange Service: startSimulator() serves the whole API on
// node:http from an in-memory store seeded with generated data. See simulator/README.md.
//
// The parts: the state (simulator-state.ts: options, store, tokens, journal, chaos), the admin service that changes
// it (admin/service.ts), the request pipeline of the API (server.ts), and under /__admin/ two routers over the
// service, the admin API (admin/api.ts) and the dashboard's (dashboard/index.ts), behind one guard (admin/guard.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleAdmin } from './admin/api.js';
import { ADMIN_PREFIX } from './admin/guard.js';
import { AdminService } from './admin/service.js';
import { Dashboard } from './dashboard/index.js';
import { errorBody } from './envelope.js';
import { listen, stopListening } from './listen.js';
import { keepInternals } from './internals.js';
import type { ResolvedOptions, SimulatorOptions } from './options.js';
import type { Persona } from './personas/types.js';
import { rules } from './rules.js';
import { Pipeline } from './server.js';
import type { SeedCounts } from './seed.js';
import { SimulatorState } from './simulator-state.js';

export type { SimulatorOptions, ResolvedOptions } from './options.js';
export type { Persona } from './personas/types.js';
export type { SeedCounts } from './seed.js';

export interface Simulator {
  /** The spec's {base_url}: origin plus the base path (a persona with a base path, switched on, changes it). */
  readonly baseUrl: string;
  /** Where the admin surface answers; undefined when it is off. */
  readonly adminUrl: string | undefined;
  /** The dashboard page (under the admin surface); undefined when the admin surface is off. */
  readonly dashboardUrl: string | undefined;
  /** The token the admin surface requires (X-Rdx-Admin-Token); undefined on loopback. */
  readonly adminToken: string | undefined;
  /** The options in force: replaced as a whole by setPersonas(). */
  readonly options: ResolvedOptions;
  /** Switches to these personas (none: the plain simulator); requests already under way finish under the old ones. */
  setPersonas(personas: readonly Persona[]): void;
  /** Records seeded, per resource. */
  readonly seeded: SeedCounts;
  /** Stops listening and ends every connection, keep-alive ones included. */
  close(): Promise<void>;
  /** Back to the seeded data (the current seed and volume) with an empty journal and the chaos sequence from its start; tokens stay valid. */
  reset(): Promise<void>;
  /** New seed data; also becomes what reset() returns to. */
  reseed(seed: number, records: number): Promise<SeedCounts>;
  /** A bearer token of the configured client that has already expired (for the harness's fixtures.expiredToken). */
  expiredToken(): string;
  /** The {id} of a job offer the simulator seeded, as the active personas address it (the harness's fixtures.atsJobOfferIds). */
  atsJobOfferFixtureIds(): string[];
  /** The store as a snapshot document (snapshot.ts). */
  exportSnapshot(): string;
  /** Replaces the store with a snapshot's records, all or nothing; throws SnapshotError saying what is wrong. */
  importSnapshot(text: string): SeedCounts;
}

/** One function for every request: the admin surface under /__admin/ (when it is on), the API's pipeline otherwise. */
function requestHandler(
  state: SimulatorState, pipeline: Pipeline, service: AdminService, dashboard: Dashboard | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  const admin = state.resolved.admin;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const work = admin && rawPath.startsWith(ADMIN_PREFIX)
      ? handleAdmin(service, dashboard, req, res, rawPath, query)
      : pipeline.handle(req, res, rawPath, query);
    work?.catch((error: unknown) => {
      process.stderr.write(`rdx simulator: ${(error as Error).message}\n`);
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify(errorBody('The simulator failed on this request.')));
      }
    });
  };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  rules();
  const state = await SimulatorState.create(options);
  const service = new AdminService(state);
  const dashboard = state.resolved.admin ? new Dashboard(service, options.conformance) : undefined;
  if (dashboard) state.journaled = () => dashboard.journaled();
  const pipeline = new Pipeline(state);
  const { server, origin } = await listen(state.resolved, requestHandler(state, pipeline, service, dashboard));
  state.listening(origin);

  const adminUrl = state.resolved.admin ? `${origin}${ADMIN_PREFIX}` : undefined;
  let closing: Promise<void> | undefined;
  const simulator: Simulator = {
    get baseUrl() {
      return state.baseUrl;
    },
    adminUrl,
    dashboardUrl: adminUrl,
    adminToken: state.resolved.adminToken,
    get options() {
      return state.options;
    },
    setPersonas: (personas) => service.setPersonas(personas),
    get seeded() {
      return state.seeded;
    },
    close() {
      closing ??= (async () => {
        dashboard?.close();
        await stopListening(server);
        // After the last request: the file holds everything a client was answered.
        await state.close();
      })();
      return closing;
    },
    async reset() {
      await service.reset();
    },
    reseed: (seed, records) => service.reseed(seed, records),
    expiredToken: () => service.expiredToken(),
    atsJobOfferFixtureIds: () => state.atsJobOfferFixtureIds(),
    exportSnapshot: () => service.exportSnapshot(),
    importSnapshot: (text) => service.importSnapshot(text),
  };
  // The store and the journal are the tests' to look into (simulator/internals.ts), not the API's; latency and chaos
  // change through the admin service, like every other change to a running simulator.
  keepInternals(simulator, { store: state.store, journal: state.journal });
  return simulator;
}
