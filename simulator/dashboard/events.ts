// The dashboard's live feed: Server-Sent Events carrying journal summaries as requests arrive, and nudges when the
// simulator's state or a conformance run changes. Bounded on every side: a few streams at most, and fewer per client
// (remote address) so one client cannot hold them all, entries sent in
// batches at most every FLUSH_MS and at most BATCH_MAX per batch, a heartbeat so proxies and browsers keep the
// stream open, a client that stops reading is dropped, and close() ends every stream so the server closes quickly.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminService } from '../admin/service.js';
import type { Journal } from '../journal.js';
import type { JournalEntry, JournalEvent, JournalSummary } from '../admin/wire.js';

export type { JournalSummary } from '../admin/wire.js';

export interface HubLimits {
  maxClients: number;
  /** Streams one remote address may hold at once. */
  maxPerClient: number;
  heartbeatMs: number;
  flushMs: number;
  /** Entries a client gets when it connects. */
  snapshot: number;
  /** Entries in one batch; older ones of a burst are skipped (and counted). */
  batchMax: number;
  /** Bytes waiting in a client's socket buffer before it is dropped as not reading. */
  maxBuffered: number;
}

export const DEFAULT_LIMITS: HubLimits = {
  maxClients: 8, maxPerClient: 4, heartbeatMs: 15_000, flushMs: 150, snapshot: 100, batchMax: 200, maxBuffered: 1 << 20,
};

function summary(id: number, e: JournalEntry): JournalSummary {
  return {
    id, at: e.at, method: e.method, path: e.path, operationId: e.operationId, status: e.status, latencyMs: e.latencyMs,
    clientId: e.clientId, ...(e.note ? { note: e.note } : {}),
  };
}

/** Why a stream was not started: every stream taken, this client's share taken, or the hub or the client is gone. */
export type Refusal = 'full' | 'client' | 'closed';

export class EventHub {
  /** Open streams, each with the remote address it came from. */
  private readonly clients = new Map<ServerResponse, string>();
  /** Entries journaled since start: the id of the newest. */
  private total = 0;
  /** total when the journal was last emptied: ids up to it are gone. */
  private clearedAt = 0;
  /** The newest id every connected client has been sent. */
  private sent = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly journal: Journal, private readonly limits: HubLimits = DEFAULT_LIMITS) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** Ids of entries the journal still holds: (newest - available, newest]. */
  private available(): number {
    return Math.min(this.journal.size, this.total - this.clearedAt);
  }

  /** One entry by id, whole (bodies masked as the journal masks them); undefined when it has left the ring. */
  entry(id: number): (JournalEntry & { id: number }) | undefined {
    if (!Number.isSafeInteger(id) || id > this.total || id <= this.total - this.available()) return undefined;
    const found = this.journal.entries(this.total - id + 1)[0];
    return found ? { id, ...found } : undefined;
  }

  /** The newest entries up to id `upTo`, at most `limit`, oldest first. */
  private summaries(upTo: number, limit: number): JournalSummary[] {
    const newer = this.total - upTo;
    const count = Math.max(0, Math.min(limit, this.available() - newer));
    if (count === 0) return [];
    const entries = this.journal.entries(count + newer).slice(0, count);
    const first = upTo - count + 1;
    return entries.map((e, i) => summary(first + i, e));
  }

  journaled(): void {
    this.total++;
    if (this.clients.size === 0) {
      this.sent = this.total;
      return;
    }
    this.flushTimer ??= setTimeout(() => this.flush(), this.limits.flushMs);
  }

  journalCleared(): void {
    this.clearedAt = this.total;
    this.sent = this.total;
    this.broadcast('reset', {});
  }

  /** Tells every page to fetch the state again (personas, chaos, data or a run changed). */
  changed(what: string, data: Record<string, unknown> = {}): void {
    this.broadcast(what, data);
  }

  /** Starts a stream; or says why it was refused (the caller answers it). */
  connect(req: IncomingMessage, res: ServerResponse): Refusal | undefined {
    // A client can be gone before its stream starts (the dashboard's first request waits for its modules to load):
    // its 'close' has passed, so a stream started for it would hold a place until the hub closes.
    if (this.closed || req.socket.destroyed) return 'closed';
    const client = req.socket.remoteAddress ?? '';
    let held = 0;
    for (const address of this.clients.values()) if (address === client) held++;
    if (held >= this.limits.maxPerClient) return 'client';
    if (this.clients.size >= this.limits.maxClients) return 'full';
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // Entries not yet flushed to the others come with the next batch, so none is sent twice.
    const entries = this.summaries(this.sent, this.limits.snapshot);
    res.write(`event: hello\ndata: ${JSON.stringify({ newest: this.sent })}\n\n`);
    res.write(`event: journal\ndata: ${JSON.stringify({ entries, skipped: 0, snapshot: true } satisfies JournalEvent)}\n\n`);
    this.clients.set(res, client);
    const forget = (): void => {
      this.clients.delete(res);
      if (this.clients.size === 0) {
        this.stopTimers();
        this.sent = this.total;
      }
    };
    req.once('close', forget);
    res.once('close', forget);
    this.heartbeat ??= setInterval(() => this.write(': heartbeat\n\n'), this.limits.heartbeatMs).unref();
    return undefined;
  }

  private flush(): void {
    this.flushTimer = undefined;
    const fresh = this.total - this.sent;
    if (fresh <= 0) return;
    const entries = this.summaries(this.total, Math.min(fresh, this.limits.batchMax));
    this.sent = this.total;
    this.broadcast('journal', { entries, skipped: fresh - entries.length, snapshot: false } satisfies JournalEvent);
  }

  private broadcast(event: string, data: Record<string, unknown>): void {
    if (this.clients.size > 0) this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private write(text: string): void {
    for (const res of this.clients.keys()) {
      if (res.writableLength > this.limits.maxBuffered) {
        res.destroy();
        this.clients.delete(res);
      } else res.write(text);
    }
  }

  private stopTimers(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.flushTimer = undefined;
    this.heartbeat = undefined;
  }

  /** Ends every stream; later connections are refused. */
  close(): void {
    this.closed = true;
    this.stopTimers();
    for (const res of this.clients.keys()) res.end();
    this.clients.clear();
  }
}

/**
 * The live feed of a simulator, made at start-up: the dashboard (./index.ts) is loaded on its first request, but
 * the ids of journal entries count from the start, and pages learn of every change, from wherever it came (a page,
 * the admin API, the API's caller). The pipeline's journal entries reach it through SimulatorState.journaled.
 */
export function followedHub(service: AdminService): EventHub {
  const hub = new EventHub(service.state.journal);
  service.onChange((change) => {
    if (change === 'journal') hub.journalCleared();
    hub.changed('state');
  });
  return hub;
}
