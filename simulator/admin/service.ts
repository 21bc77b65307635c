// The admin service: the one place that changes the simulator after start-up (reset, reseed, snapshots, personas,
// chaos) and says what it holds (health, the journal). The admin API (api.ts), the dashboard (dashboard/index.ts)
// and the Simulator's methods (index.ts) all go through it, so each change is validated, worded and announced once.
// It knows nothing of HTTP: what a request sent reaches it as a parsed body or text, and what it refuses is thrown
// as an AdminRefusal, which each router answers in its own way.
import { UsageError } from '../../src/errors.js';
import { chaosActive, chaosSettings, describeChaos, type ChaosSettings } from '../chaos.js';
import { MAX_RECORDS } from '../options.js';
import type { Persona } from '../personas/types.js';
import type { SeedCounts } from '../seed.js';
import type { SimulatorState } from '../simulator-state.js';
import { SnapshotError } from '../snapshot.js';
import { AdminRefusal, type JsonObject } from './body.js';
import type { ChaosView, JournalEntry, PersonaView } from './wire.js';

/** What a change did, in words, and the data that shows it (the envelope's message and data). */
export interface Done {
  message: string;
  data: unknown[];
}

/**
 * What changed, for a page that shows it live: 'journal' the journal was emptied (and the store changed with it),
 * 'state' the store, the personas or chaos.
 */
export type Change = 'journal' | 'state';

export type { PersonaView } from './wire.js';

/** A whole number from 0 to max, the current value when left out; a problem (pushed) otherwise. */
function wholeNumber(body: JsonObject, name: string, max: number, current: number, problems: string[]): number {
  const value = body[name];
  if (value === undefined) return current;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max) return value;
  problems.push(`${name} must be a whole number from 0 to ${max}`);
  return current;
}

export class AdminService {
  private readonly listeners = new Set<(change: Change) => void>();

  constructor(readonly state: SimulatorState) {}

  /** Calls listener after each change; returns what stops it. */
  onChange(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: Change): void {
    for (const listener of this.listeners) listener(change);
  }

  health(): JsonObject {
    const { state } = this;
    return {
      status: 'up',
      uptimeSeconds: Math.round((state.resolved.now() - state.startedAt) / 1000),
      seed: state.current.seed,
      records: state.current.records,
      counts: state.store.counts(),
      tokens: state.tokens.size,
      journal: state.journal.size,
      personas: state.options.personas.map((p) => p.name),
      basePath: state.options.basePath,
    };
  }

  /** The latest limit requests (all kept when undefined), oldest first, secrets masked. */
  journal(limit?: number): JournalEntry[] {
    return this.state.journal.entries(limit);
  }

  expiredToken(): string {
    return this.state.expiredToken();
  }

  /** Back to the seeded data (the current seed and volume) with an empty journal and chaos from its start. */
  reset(): Promise<SeedCounts> {
    return this.reseed(this.state.current.seed, this.state.current.records);
  }

  /** New seed data, which a reset returns to; a value out of range throws a UsageError. */
  async reseed(seed: number, records: number): Promise<SeedCounts> {
    const counts = await this.state.reseed(seed, records);
    this.changed('journal');
    return counts;
  }

  async resetDone(): Promise<Done> {
    const counts = await this.reset();
    const { seed, records } = this.state.current;
    return { message: `Store reset to seed ${seed} (${records} records); journal emptied.`, data: [counts] };
  }

  /** A reseed asked for by {seed, records} (either may be left out: the current one stays). */
  async reseedFrom(body: JsonObject): Promise<Done> {
    const problems: string[] = [];
    const seed = wholeNumber(body, 'seed', Number.MAX_SAFE_INTEGER, this.state.current.seed, problems);
    const records = wholeNumber(body, 'records', MAX_RECORDS, this.state.current.records, problems);
    if (problems.length > 0) throw new AdminRefusal('validation', 'The reseed request is not valid.', problems);
    const counts = await this.reseed(seed, records);
    return { message: `Reseeded with seed ${seed}, ${records} records.`, data: [counts] };
  }

  /** The store as a snapshot document (snapshot.ts). */
  exportSnapshot(): string {
    return this.state.exportSnapshot();
  }

  /** Replaces the store with a snapshot's records, all or nothing; throws SnapshotError saying what is wrong. */
  importSnapshot(text: string): SeedCounts {
    const counts = this.state.importSnapshot(text);
    this.changed('state');
    return counts;
  }

  /** A snapshot sent to be imported; one that cannot be is refused, and nothing changes. */
  importFrom(text: string): Done {
    let counts: SeedCounts;
    try {
      counts = this.importSnapshot(text);
    } catch (error) {
      if (error instanceof SnapshotError) throw new AdminRefusal('validation', `The snapshot was refused, nothing changed: ${error.message}.`);
      throw error;
    }
    const { seed, records } = this.state.current;
    const total = Object.values(counts).reduce((n, c) => n + c, 0);
    return { message: `Snapshot imported: the store holds its ${total} records now (first seeded with seed ${seed}, ${records} records).`, data: [counts] };
  }

  /** Every persona, and whether it is on. Their modules are loaded the first time this is asked, not at start-up. */
  async personas(): Promise<PersonaView[]> {
    const { allPersonas } = await import('../personas/index.js');
    const active = new Set(this.state.options.personas.map((p) => p.name));
    return allPersonas().map((p) => ({
      name: p.name, kind: p.kind, description: p.description, breaks: p.breaks ?? [], interprets: p.interprets ?? [], active: active.has(p.name),
    }));
  }

  /** Switches to these personas (none: the plain simulator); requests already under way finish under the old ones. */
  setPersonas(personas: readonly Persona[]): void {
    this.state.setPersonas(personas);
    this.changed('state');
  }

  /** Personas asked for by name: {"active": [name, …]}. */
  async personasFrom(body: JsonObject): Promise<Done> {
    const { personaByName } = await import('../personas/index.js');
    const names = body['active'];
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
      throw new AdminRefusal('validation', 'The body must be {"active": ["persona-name", …]}.');
    }
    const unknown = (names as string[]).filter((n) => !personaByName(n));
    if (unknown.length > 0) throw new AdminRefusal('validation', 'Unknown personas.', unknown.map((n) => `no persona ${JSON.stringify(n)}`));
    const chosen = [...new Set(names as string[])].map((n) => personaByName(n) as Persona);
    this.setPersonas(chosen);
    const text = chosen.length === 0 ? 'none' : chosen.map((p) => p.name).join(', ');
    return { message: `Personas now: ${text}.`, data: await this.personas() };
  }

  /** Latency and chaos as a page shows them. */
  chaosView(settings: ChaosSettings = this.state.chaos.settings): ChaosView {
    const s = settings;
    return {
      latency: s.latency.map((r) => r.text), errorRate: s.errorRate, dropRate: s.dropRate, seed: s.seed,
      active: chaosActive(s), text: describeChaos(s),
    };
  }

  chaosDone(settings: ChaosSettings = this.state.chaos.settings): Done {
    return { message: `Chaos ${describeChaos(settings)}.`, data: [this.chaosView(settings)] };
  }

  /** Latency and chaos asked for as {latency, errorRate, dropRate, seed}; what is left out is off (the seed stays). */
  chaosFrom(body: JsonObject): Done {
    const latency = body['latency'];
    if (latency !== undefined && typeof latency !== 'string' && !(Array.isArray(latency) && latency.every((l) => typeof l === 'string'))) {
      throw new AdminRefusal('validation', 'latency must be a string or a list of strings such as "20-80" or "GET /ats/job-offers=50".');
    }
    for (const key of ['errorRate', 'dropRate', 'seed']) {
      if (body[key] !== undefined && typeof body[key] !== 'number') throw new AdminRefusal('validation', `${key} must be a number.`);
    }
    const number = (key: string): number | undefined => body[key] as number | undefined;
    const current = this.state.chaos.settings;
    let next: ChaosSettings;
    try {
      next = chaosSettings({
        latency: latency as string | string[] | undefined, errorRate: number('errorRate'), dropRate: number('dropRate'), seed: number('seed') ?? current.seed,
      }, current.seed);
    } catch (error) {
      // chaosSettings names the value it cannot use.
      if (error instanceof UsageError) throw new AdminRefusal('validation', error.message);
      throw error;
    }
    this.state.chaos.configure(next);
    this.changed('state');
    return this.chaosDone(next);
  }
}
