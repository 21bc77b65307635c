// Learning the {id} of the ATS job offers a run creates, for implementations whose {id} is not the reference and never
// appears in a response (interpretation ATS_JOB_OFFER_ID). The vendor knows its ids, and tells the harness how to ask
// (profile key atsJobOfferIdSource, one of):
//   command  a shell command run once per created reference ({reference} is replaced, shell-quoted; also in the
//            environment as RDX_REFERENCE); it prints the id.
//   file     a JSON-lines file the implementation appends {"reference": …, "id": …} to when it creates a job offer.
//   url      a URL template of a vendor-side lookup ({reference} URL-encoded), on the base URL's origin only, since
//            it is sent the run's bearer token; it answers the id as text, as JSON, or as {id} / {data: [{id}]}.
import { execFile } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { HttpClient } from '../http/client.js';
import type { AtsJobOfferIdSource } from '../config/profile.js';
import type { Unlock } from '../core/results.js';

/** The profile key, as the "To complete this certification" list names it. */
export const ID_SOURCE_KEY = 'atsJobOfferIdSource';

export const ID_SOURCE_UNLOCK: Unlock = {
  unlock: ID_SOURCE_KEY,
  how: 'tell the harness how to learn the {id} of a job offer it creates: atsJobOfferIdSource.command, .file or .url in the profile (docs/verdicts.md)',
};

const COMMAND_TIMEOUT_MS = 10_000;
const COMMAND_OUTPUT_BYTES = 64 * 1024;
/** How long a created reference may take to show up in the id log (the implementation may write it late). */
const FILE_WAIT_MS = 3_000;
const FILE_POLL_MS = 50;
const FILE_MAX_BYTES = 256 * 1024 * 1024;
const ID = /^[^\s/?#]{1,200}$/;

/** What a profile's atsJobOfferIdSource is, or a problem saying what is wrong with it. */
export function idSourceProblem(source: unknown, baseUrl: string | undefined): string | undefined {
  if (source === undefined) return undefined;
  if (!source || typeof source !== 'object' || Array.isArray(source)) return 'expected an object with one of command, file or url';
  const keys = Object.keys(source);
  if (keys.length !== 1 || !['command', 'file', 'url'].includes(keys[0] as string)) return `expected exactly one of command, file or url (got ${keys.join(', ') || 'none'})`;
  const value = (source as Record<string, unknown>)[keys[0] as string];
  if (typeof value !== 'string' || value.trim() === '') return `${keys[0]}: expected a non-empty string`;
  if ('url' in source) {
    if (!value.includes('{reference}')) return 'url: the template has no {reference}';
    let url: URL;
    try {
      url = new URL(value.replace(/\{reference\}/g, 'x'));
    } catch {
      return `url: ${JSON.stringify(value)} is not a URL`;
    }
    // The lookup is sent the run's bearer token: never to another origin than the one the user named.
    if (!baseUrl) return 'url: needs a base URL, whose origin it must share';
    if (url.origin !== new URL(baseUrl).origin) return `url: its origin ${url.origin} is not the base URL's ${new URL(baseUrl).origin} (the run's token is never sent to another origin)`;
  }
  return undefined;
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The id in an answer: plain text, a JSON string or number, {id}, or {data: [{id}]}. */
export function idFromAnswer(text: string): string | undefined {
  const trimmed = text.trim();
  let value: unknown = trimmed.split(/\r?\n/)[0]?.trim();
  try {
    value = JSON.parse(trimmed);
  } catch {
    // plain text: its first line
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    value = 'id' in obj ? obj['id'] : Array.isArray(obj['data']) ? (obj['data'][0] as Record<string, unknown> | undefined)?.['id'] : undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && ID.test(value)) return value;
  return undefined;
}

export interface JobOfferIdDeps {
  baseUrl: string;
  http: HttpClient;
  token: () => Promise<string>;
}

/** The ids learned so far, by reference; learn() asks the source for one it does not know yet. */
export class JobOfferIds {
  private readonly known = new Map<string, string>();
  private logRead = 0;

  constructor(readonly source: AtsJobOfferIdSource, private readonly deps: JobOfferIdDeps) {}

  get(reference: string): string | undefined {
    return this.known.get(reference);
  }

  /** The id of a job offer, or why none could be learned. */
  async learn(reference: string): Promise<{ id: string } | { problem: string }> {
    const seen = this.known.get(reference);
    if (seen !== undefined) return { id: seen };
    const got = 'command' in this.source ? await this.fromCommand(this.source.command, reference)
      : 'file' in this.source ? await this.fromFile(this.source.file, reference)
        : await this.fromUrl(this.source.url, reference);
    if ('id' in got) this.known.set(reference, got.id);
    return got;
  }

  private fromCommand(template: string, reference: string): Promise<{ id: string } | { problem: string }> {
    const command = template.replace(/\{reference\}/g, shellQuote(reference));
    return new Promise((resolve) => {
      execFile('/bin/sh', ['-c', command], {
        timeout: COMMAND_TIMEOUT_MS, maxBuffer: COMMAND_OUTPUT_BYTES, env: { ...process.env, RDX_REFERENCE: reference },
      }, (error, stdout) => {
        if (error) {
          resolve({ problem: `atsJobOfferIdSource.command failed for reference ${reference}: ${error.killed ? `no answer within ${COMMAND_TIMEOUT_MS} ms` : error.message.split('\n')[0]}` });
          return;
        }
        const id = idFromAnswer(stdout);
        resolve(id ? { id } : { problem: `atsJobOfferIdSource.command printed no id for reference ${reference} (got ${JSON.stringify(stdout.slice(0, 60))})` });
      });
    });
  }

  /** Reads what the log gained since the last read; a line that is not {reference, id} is passed over. */
  private readLog(file: string): void {
    const size = statSync(file).size;
    if (size < this.logRead) this.logRead = 0; // the log was truncated or replaced: read it again
    if (size === this.logRead) return;
    const length = Math.min(size - this.logRead, FILE_MAX_BYTES);
    const buffer = Buffer.alloc(length);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, length, this.logRead);
    } finally {
      closeSync(fd);
    }
    const text = buffer.toString('utf8');
    const complete = text.lastIndexOf('\n') + 1; // a line still being written waits for the next read
    this.logRead += Buffer.byteLength(text.slice(0, complete), 'utf8');
    for (const line of text.slice(0, complete).split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as { reference?: unknown; id?: unknown };
        const id = typeof entry.id === 'number' ? String(entry.id) : entry.id;
        if (typeof entry.reference === 'string' && typeof id === 'string' && ID.test(id)) this.known.set(entry.reference, id);
      } catch {
        // not JSON: another writer's line, or garbage; the log is the vendor's, not ours
      }
    }
  }

  private async fromFile(file: string, reference: string): Promise<{ id: string } | { problem: string }> {
    const until = Date.now() + FILE_WAIT_MS;
    for (;;) {
      try {
        this.readLog(file);
      } catch (error) {
        return { problem: `atsJobOfferIdSource.file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
      }
      const id = this.known.get(reference);
      if (id !== undefined) return { id };
      if (Date.now() >= until) return { problem: `atsJobOfferIdSource.file ${file} has no line for reference ${reference} (waited ${FILE_WAIT_MS} ms)` };
      await new Promise((r) => setTimeout(r, FILE_POLL_MS));
    }
  }

  private async fromUrl(template: string, reference: string): Promise<{ id: string } | { problem: string }> {
    const url = template.replace(/\{reference\}/g, encodeURIComponent(reference));
    // Checked again here, not only when the profile was read: this is where the token leaves.
    if (new URL(url).origin !== new URL(this.deps.baseUrl).origin) return { problem: 'atsJobOfferIdSource.url is not on the base URL\'s origin' };
    const ex = await this.deps.http.send('job offer id lookup', {
      method: 'GET', url, headers: { accept: 'application/json, text/plain', authorization: `Bearer ${await this.deps.token()}` },
    });
    const status = ex.response?.status ?? 0;
    if (!ex.response || status < 200 || status >= 300) {
      return { problem: `atsJobOfferIdSource.url answered ${ex.transportError ? ex.transportError.message : `status ${status}`} for reference ${reference}` };
    }
    const id = idFromAnswer(ex.response.body);
    return id ? { id } : { problem: `atsJobOfferIdSource.url gave no id for reference ${reference}` };
  }
}
