// Learning the {id} of the records a run creates, for implementations that never show it: a batch create answered
// with {message} only (BATCH_VARIANT), or an ATS job offer whose {id} is not its reference (ATS_JOB_OFFER_ID). The
// vendor knows its ids, and tells the harness how to ask, per resource (profile key idSources.<resource>, one of):
//   command  a shell command run once per created record; each field of the record's key is replaced ({reference},
//            {application_ats_id}, …, shell-quoted) and set in the environment (RDX_REFERENCE, RDX_APPLICATION_ATS_ID,
//            …); it prints the id.
//   file     a JSON-lines file the implementation appends {<key fields>, "id": …} to when it creates a record.
//   url      a URL template of a vendor-side lookup (each key field URL-encoded), on the base URL's origin only, since
//            it is sent the run's bearer token; it answers the id as text, as JSON, or as {id} / {data: [{id}]}.
// A record's key is what names it in the request that created it: the fields of x-rdx-id-key in its schema
// (spec/schemas), read by resourceInfo, so the rule lives there once. atsJobOfferIdSource is idSources.atsJobOffer.
import { execFile } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { TokenSender } from '../http/auth.js';
import type { ThrottledAnswer } from '../http/client.js';
import type { IdSource, IdSources } from '../config/profile.js';
import type { Unlock } from '../core/results.js';
import { resourceInfo } from '../spec/index.js';
import { sameValue } from '../checks/records.js';

/** The resources whose created records an id source can name, with their key under idSources and their name in words. */
export const ID_SOURCE_RESOURCES = {
  'job-offer': { key: 'atsJobOffer', words: 'ATS job offer' },
  'application-step': { key: 'applicationStep', words: 'application step' },
  'jobboard-activity': { key: 'jobboardActivity', words: 'jobboard activity' },
  'jobboard-job-offer': { key: 'jobboardJobOffer', words: 'jobboard job offer' },
} as const;

/** "an ATS job offer", "an application step", "a jobboard activity". */
export const aRecord = (resource: IdSourceResource): string => `${/^[AEIOUaeiou]/.test(ID_SOURCE_RESOURCES[resource].words) ? 'an' : 'a'} ${ID_SOURCE_RESOURCES[resource].words}`;
export type IdSourceResource = keyof typeof ID_SOURCE_RESOURCES;
export const isIdSourceResource = (resource: string): resource is IdSourceResource => resource in ID_SOURCE_RESOURCES;

/** "idSources.applicationStep": the profile key of a resource's id source, as the unlock list names it. */
export const idSourceKey = (resource: IdSourceResource): string => `idSources.${ID_SOURCE_RESOURCES[resource].key}`;

/** What unlocks a case that needs the id of a record the answers never showed: an id source for its resource. */
export function idSourceUnlock(resource: IdSourceResource): Unlock {
  const key = idSourceKey(resource);
  return {
    unlock: key,
    how: `tell the harness how to learn the {id} of ${aRecord(resource)} it creates: ${key}.command, .file or .url in the profile (docs/verdicts.md)`,
  };
}

/** The id sources of a profile, by resource: idSources, with atsJobOfferIdSource as idSources.atsJobOffer. */
export function idSourcesOf(profile: { idSources?: IdSources; atsJobOfferIdSource?: IdSource }): Partial<Record<IdSourceResource, IdSource>> {
  const out: Partial<Record<IdSourceResource, IdSource>> = {};
  for (const [resource, { key }] of Object.entries(ID_SOURCE_RESOURCES) as [IdSourceResource, { key: keyof IdSources }][]) {
    const source = profile.idSources?.[key] ?? (resource === 'job-offer' ? profile.atsJobOfferIdSource : undefined);
    if (source) out[resource] = source;
  }
  return out;
}

/** The fields that name a created record of the resource, in order (x-rdx-id-key, else the identity field). */
export const keyFields = (resource: IdSourceResource): string[] => resourceInfo(resource).idKey;

/** A created record's key: its key fields as the request gave them. */
export type RecordKey = Record<string, string>;

/** "reference R" or "application_ats_id A, step S, recorded_at D", for messages. */
export const describeKey = (key: RecordKey): string => Object.entries(key).map(([field, value]) => `${field} ${value}`).join(', ');

const COMMAND_TIMEOUT_MS = 10_000;
const COMMAND_OUTPUT_BYTES = 64 * 1024;
/** How long a created record may take to show up in the id log (the implementation may write it late). */
export const FILE_WAIT_MS = 3_000;
const FILE_POLL_MS = 50;
/**
 * An id log is read a chunk at a time, yielding between chunks, and from its last FILE_TAIL_BYTES on its first read:
 * the lines of the run's records are appended as the run creates them, and a log of hundreds of MB read whole
 * blocked the run long enough for its requests to time out, or ran it out of memory.
 */
const FILE_CHUNK_BYTES = 4 * 1024 * 1024;
const FILE_TAIL_BYTES = 16 * 1024 * 1024;
/** Ids kept per resource: the newest, where a log holds more lines than a run could create records. */
const MAX_KNOWN = 50_000;
const STDERR_SHOWN = 300;
const ID = /^[^\s/?#]{1,200}$/;

/** What is wrong with one id source of a profile (key: its profile key), or undefined when it can be used. */
export function idSourceProblem(source: unknown, baseUrl: string | undefined, resource: IdSourceResource = 'job-offer'): string | undefined {
  if (source === undefined) return undefined;
  if (!source || typeof source !== 'object' || Array.isArray(source)) return 'expected an object with one of command, file or url';
  const keys = Object.keys(source);
  if (keys.length !== 1 || !['command', 'file', 'url'].includes(keys[0] as string)) return `expected exactly one of command, file or url (got ${keys.join(', ') || 'none'})`;
  const value = (source as Record<string, unknown>)[keys[0] as string];
  if (typeof value !== 'string' || value.trim() === '') return `${keys[0]}: expected a non-empty string`;
  if ('url' in source) {
    const absent = keyFields(resource).filter((field) => !value.includes(`{${field}}`));
    if (absent.length) return `url: the template has no ${absent.map((f) => `{${f}}`).join(', ')} (it must name the record: ${keyFields(resource).map((f) => `{${f}}`).join(', ')})`;
    let url: URL;
    try {
      url = new URL(value.replace(/\{\w+\}/g, 'x'));
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

/** Replaces {field} by each key field's value, written by `write`. */
const fill = (template: string, key: RecordKey, write: (value: string) => string): string =>
  template.replace(/\{(\w+)\}/g, (whole, field: string) => (field in key ? write(key[field] as string) : whole));

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
  return idValue(value);
}

/** An id as the harness writes it in a path: a finite number or a string without separators. */
export function idValue(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && ID.test(value)) return value;
  return undefined;
}

/** Whether a record (a log line, a listed record) has the key: each field equal as text, dates as instants. */
export function matchesKey(record: unknown, key: RecordKey): boolean {
  if (!record || typeof record !== 'object') return false;
  // A loop, not Object.entries(key).every: it runs once per listed record, 20,000 on a page of a hostile target.
  for (const field of Object.keys(key)) {
    const got = (record as Record<string, unknown>)[field];
    if (!((typeof got === 'string' || typeof got === 'number') && sameValue(key[field], String(got), true))) return false;
  }
  return true;
}

export interface IdSourceDeps {
  baseUrl: string;
  /** Sends a lookup with the run's token (a fresh one after a 401). */
  tokens: TokenSender;
}

/** What an id source answered: the id, or why none (problem, for the case) and what would fix it (for the list). */
export type Learned = { id: string } | { problem: string; unlock: Unlock };

/** One resource's id source: the ids learned so far, and learn() to ask for one not known yet. */
class ResourceIds {
  private readonly known: { key: RecordKey; id: string }[] = [];
  private logRead = 0;
  /** The first problem of each kind, which the unlock list gives for every case the same kind of problem stopped. */
  private readonly firstProblems = new Map<string, string>();
  private readonly where: string;

  constructor(readonly resource: IdSourceResource, readonly source: IdSource, private readonly deps: IdSourceDeps) {
    this.where = `${idSourceKey(resource)}.${Object.keys(source)[0]}`;
  }

  get(key: RecordKey): string | undefined {
    return this.known.find((k) => matchesKey(k.key, key))?.id;
  }

  /** Every id learned for the key, oldest first (a service may create several records with one key). */
  all(key: RecordKey): string[] {
    return [...new Set(this.known.filter((k) => matchesKey(k.key, key)).map((k) => k.id))];
  }

  /** `throttled`: where a lookup URL's throttled answers go (the asking case's own list; HttpClient.send). */
  async learn(key: RecordKey, throttled?: ThrottledAnswer[]): Promise<Learned> {
    const seen = this.get(key);
    if (seen !== undefined) return { id: seen };
    const got = 'command' in this.source ? await this.fromCommand(this.source.command, key)
      : 'file' in this.source ? await this.fromFile(this.source.file, key)
        : await this.fromUrl(this.source.url, key, throttled);
    if ('id' in got) {
      this.known.push({ key, id: got.id });
      return got;
    }
    // Grouped by kind: one line in "To complete this certification" per way the source broke, not one per record.
    const first = this.firstProblems.get(got.kind) ?? got.problem;
    this.firstProblems.set(got.kind, first);
    return { problem: got.problem, unlock: { unlock: idSourceKey(this.resource), how: `${first}: ${got.fix}` } };
  }

  private fromCommand(template: string, key: RecordKey): Promise<{ id: string } | Broken> {
    const command = fill(template, key, shellQuote);
    const env: NodeJS.ProcessEnv = { ...process.env, RDX_RESOURCE: this.resource };
    for (const [field, value] of Object.entries(key)) env[`RDX_${field.toUpperCase()}`] = value;
    return new Promise((resolve) => {
      execFile('/bin/sh', ['-c', command], { timeout: COMMAND_TIMEOUT_MS, maxBuffer: COMMAND_OUTPUT_BYTES, env }, (error, stdout, stderr) => {
        const fix = `make the command print the id of the ${ID_SOURCE_RESOURCES[this.resource].words} named by ${keyFields(this.resource).map((f) => `{${f}}`).join(', ')}`;
        if (error) {
          const said = oneLine(String(stderr ?? ''));
          const exit = error.killed ? `gave no answer within ${COMMAND_TIMEOUT_MS} ms`
            : typeof error.code === 'number' ? `exited with code ${error.code}` : `could not run (${oneLine(error.message)})`;
          resolve(broken('command-failed', `${this.where} ${exit} for ${describeKey(key)}${said ? `; its stderr: ${said}` : ''}`, fix));
          return;
        }
        const id = idFromAnswer(stdout);
        resolve(id ? { id } : broken('command-no-id', `${this.where} printed no id for ${describeKey(key)} (it printed ${JSON.stringify(stdout.slice(0, 60))})`, fix));
      });
    });
  }

  /**
   * Reads the next chunk of what the log gained since the last read; a line that is not {<key fields>, id} is passed
   * over. Returns whether more is left to read.
   */
  private readLog(file: string): boolean {
    const size = statSync(file).size;
    if (size < this.logRead) this.logRead = 0; // the log was truncated or replaced: read it again
    if (size === this.logRead) return false;
    // First read of a long log: its tail only, from the first whole line in it.
    const skipPartial = this.logRead === 0 && size > FILE_TAIL_BYTES;
    if (skipPartial) this.logRead = size - FILE_TAIL_BYTES;
    const length = Math.min(size - this.logRead, FILE_CHUNK_BYTES);
    const buffer = Buffer.alloc(length);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, length, this.logRead);
    } finally {
      closeSync(fd);
    }
    let text = buffer.toString('utf8');
    if (skipPartial) {
      const first = text.indexOf('\n') + 1;
      this.logRead += Buffer.byteLength(text.slice(0, first), 'utf8');
      text = text.slice(first);
    }
    // A line still being written waits for the next read; a chunk with no line end at all (a line longer than a
    // chunk) is passed over whole.
    const end = text.lastIndexOf('\n') + 1;
    const complete = end === 0 && length === FILE_CHUNK_BYTES ? text.length : end;
    this.logRead += Buffer.byteLength(text.slice(0, complete), 'utf8');
    const fields = keyFields(this.resource);
    for (const line of text.slice(0, complete).split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        const id = idValue(entry['id']);
        const key = Object.fromEntries(fields.map((f) => [f, entry[f]]));
        if (id !== undefined && Object.values(key).every((v) => typeof v === 'string' || typeof v === 'number')) {
          this.known.push({ key: Object.fromEntries(Object.entries(key).map(([f, v]) => [f, String(v)])), id });
          // Cut back to the newest MAX_KNOWN once it holds twice that: amortised, where a shift per line was quadratic.
          if (this.known.length >= 2 * MAX_KNOWN) this.known.splice(0, this.known.length - MAX_KNOWN);
        }
      } catch {
        // not JSON: another writer's line, or garbage; the log is the vendor's, not ours
      }
    }
    return this.logRead < size;
  }

  private async fromFile(file: string, key: RecordKey): Promise<{ id: string } | Broken> {
    const until = Date.now() + FILE_WAIT_MS;
    const line = `{${keyFields(this.resource).map((f) => `"${f}": …`).join(', ')}, "id": …}`;
    for (;;) {
      let more: boolean;
      try {
        more = this.readLog(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const what = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? (error as Error).message})`;
        return broken(`file-${code ?? 'unreadable'}`, `${this.where} ${file} ${what}`, `make the implementation write its id log there (one line ${line} per ${ID_SOURCE_RESOURCES[this.resource].words} it creates), or point the profile at the file it writes`);
      }
      const id = this.get(key);
      if (id !== undefined) return { id };
      // More of the log to read: after the event loop has had its turn (timers, answers), not after a poll's wait.
      if (more && Date.now() < until) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      if (Date.now() >= until) {
        return broken('file-no-line', `${this.where} ${file} has no line for ${describeKey(key)} after ${FILE_WAIT_MS} ms`,
          `the implementation must append a line ${line} for each ${ID_SOURCE_RESOURCES[this.resource].words} it creates, with the key fields as the request gave them`);
      }
      await new Promise((r) => setTimeout(r, FILE_POLL_MS));
    }
  }

  private async fromUrl(template: string, key: RecordKey, throttled?: ThrottledAnswer[]): Promise<{ id: string } | Broken> {
    const url = fill(template, key, encodeURIComponent);
    const fix = `make the lookup answer the id of the ${ID_SOURCE_RESOURCES[this.resource].words} its URL names (as text, JSON, {id} or {data: [{id}]})`;
    // Checked again here, not only when the profile was read: this is where the token leaves.
    if (new URL(url).origin !== new URL(this.deps.baseUrl).origin) return broken('url-origin', `${this.where} is not on the base URL's origin`, 'put the lookup on the base URL\'s origin');
    const ex = await this.deps.tokens.send(`${ID_SOURCE_RESOURCES[this.resource].words} id lookup`, {
      method: 'GET', url, headers: { accept: 'application/json, text/plain' },
    }, throttled);
    const status = ex.response?.status ?? 0;
    if (!ex.response || status < 200 || status >= 300) {
      const what = ex.transportError ? `gave no answer (${ex.transportError.message})` : `answered status ${status}`;
      return broken(ex.transportError ? 'url-no-answer' : `url-status-${status}`, `${this.where} ${what} for ${describeKey(key)} (GET ${url})`, fix);
    }
    const id = idFromAnswer(ex.response.body);
    return id ? { id } : broken('url-no-id', `${this.where} gave no id for ${describeKey(key)} (GET ${url} answered ${JSON.stringify(ex.response.body.slice(0, 60))})`, fix);
  }
}

interface Broken {
  kind: string;
  problem: string;
  fix: string;
}
const broken = (kind: string, problem: string, fix: string): Broken => ({ kind, problem, fix });
const oneLine = (text: string): string => {
  const flat = text.trim().replace(/\s*\r?\n\s*/g, ' | ');
  return flat.length > STDERR_SHOWN ? `${flat.slice(0, STDERR_SHOWN)}…` : flat;
};

/** The run's id sources, one per resource the profile names; learn() asks the resource's source for a record's id. */
export class IdSourceSet {
  private readonly byResource = new Map<IdSourceResource, ResourceIds>();

  constructor(sources: Partial<Record<IdSourceResource, IdSource>>, deps: IdSourceDeps) {
    for (const [resource, source] of Object.entries(sources) as [IdSourceResource, IdSource][]) {
      this.byResource.set(resource, new ResourceIds(resource, source, deps));
    }
  }

  has(resource: string): boolean {
    return isIdSourceResource(resource) && this.byResource.has(resource);
  }

  /** The id already learned for a record, without asking. */
  get(resource: IdSourceResource, key: RecordKey): string | undefined {
    return this.byResource.get(resource)?.get(key);
  }

  /** Every id learned so far for records with the key, oldest first, without asking. */
  all(resource: IdSourceResource, key: RecordKey): string[] {
    return this.byResource.get(resource)?.all(key) ?? [];
  }

  async learn(resource: IdSourceResource, key: RecordKey, throttled?: ThrottledAnswer[]): Promise<Learned> {
    const source = this.byResource.get(resource);
    if (!source) return { problem: `the profile gives no ${idSourceKey(resource)}`, unlock: idSourceUnlock(resource) };
    return source.learn(key, throttled);
  }
}
