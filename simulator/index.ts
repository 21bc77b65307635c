// The reference simulator of the Recruitment Data Exchange Service: startSimulator() serves the whole API on
// node:http from an in-memory store seeded with generated data. See simulator/README.md.
//
// The parts: the state (simulator-state.ts: options, store, tokens, journal, chaos), the admin service that changes
// it (admin/service.ts), the request pipeline of the API (server.ts), and under /__admin/ two routers over the
// service, the admin API (admin/api.ts) and the dashboard's (dashboard/index.ts), behind one guard (admin/guard.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DashboardRouter } from './admin/api.js';
import { ADMIN_PREFIX } from './admin/guard.js';
import { AdminService } from './admin/service.js';
import type { ConformanceRunner } from '../src/core/conformance.js';
import type { Dashboard } from './dashboard/index.js';
import { followedHub, type EventHub } from './dashboard/events.js';
import { errorBody } from './envelope.js';
import { listen, stopListening } from './listen.js';
import { keepInternals } from './internals.js';
import type { SimulatorOptions } from './options.js';
import type { Persona } from './personas/types.js';
import { rules } from './rules.js';
import { Pipeline } from './server.js';
import type { SimulatorOf } from './public.js';
import { SimulatorState } from './simulator-state.js';

export type { SimulatorOptions, ResolvedOptions } from './options.js';
export type { Persona } from './personas/types.js';
export type { SeedCounts } from './public.js';

/** A started simulator (declared in public.ts, with the simulator's own Persona). */
export type Simulator = SimulatorOf<Persona>;

/**
 * The dashboard, made on its first request: loading its modules and the admin API's (some ten) took 7-14 ms of `rdx
 * simulate`'s start-up, for a page most runs never open. The first request under /__admin/ waits for them (node:http
 * keeps its body until it is read). Closed at once when it arrives after the simulator closed.
 */
function dashboardOnDemand(service: AdminService, hub: EventHub, conformance: ConformanceRunner | undefined): { router: DashboardRouter; close(): void } {
  let loading: Promise<Dashboard> | undefined;
  let made: Dashboard | undefined;
  let closed = false;
  const dashboard = (): Promise<Dashboard> => (loading ??= import('./dashboard/index.js').then(({ Dashboard: Made }) => {
    made = new Made(service, hub, conformance);
    if (closed) made.close();
    return made;
  }));
  return {
    router: { handle: async (req, res, name, query) => (await dashboard()).handle(req, res, name, query) },
    close(): void {
      closed = true;
      hub.close();
      made?.close();
    },
  };
}

/** The admin API's router, loaded on the first request under /__admin/ (see dashboardOnDemand). */
let adminApi: Promise<typeof import('./admin/api.js')> | undefined;

/** One function for every request: the admin surface under /__admin/ (when it is on), the API's pipeline otherwise. */
function requestHandler(
  state: SimulatorState, pipeline: Pipeline, service: AdminService, dashboard: DashboardRouter | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  const admin = state.resolved.admin;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const work = admin && rawPath.startsWith(ADMIN_PREFIX)
      ? (adminApi ??= import('./admin/api.js')).then(({ handleAdmin }) => handleAdmin(service, dashboard, req, res, rawPath, query))
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
  const hub = state.resolved.admin ? followedHub(service) : undefined;
  if (hub) state.journaled = () => hub.journaled();
  const dashboard = hub ? dashboardOnDemand(service, hub, options.conformance) : undefined;
  const pipeline = new Pipeline(state);
  const { server, origin } = await listen(state.resolved, requestHandler(state, pipeline, service, dashboard?.router));
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
