// Request bodies of the admin API and the dashboard, and how either refuses what it was sent: an AdminRefusal,
// which each router answers with its status and the error envelope.
import type { IncomingMessage } from 'node:http';
import { readBody, utf8 } from '../request-body.js';
import { SNAPSHOT_MAX_BYTES } from '../snapshot.js';

/** An export is a download, under this name. */
export const SNAPSHOT_DISPOSITION = 'attachment; filename="rdx-simulator-snapshot.json"';

export type RefusalOutcome = 'validation' | 'malformedJson' | 'payloadTooLarge';

/** A request the admin service or a router refuses, nothing changed: what is wrong, and the problems item by item. */
export class AdminRefusal extends Error {
  constructor(
    readonly outcome: RefusalOutcome,
    message: string,
    readonly problems?: string[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export type JsonObject = Record<string, unknown>;

/** A JSON object body of at most max bytes (an empty body reads as {}); anything else is refused. */
export async function readJsonObject(req: IncomingMessage, max: number): Promise<JsonObject> {
  const raw = await readBody(req, max);
  if (!raw) throw new AdminRefusal('payloadTooLarge', 'The request body is too large.', undefined, { connection: 'close' });
  if (raw.length === 0) return {};
  const text = utf8(raw);
  if (text === undefined) throw new AdminRefusal('malformedJson', 'The body is not valid UTF-8.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AdminRefusal('malformedJson', 'The body is not well-formed JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AdminRefusal('validation', 'The body must be a JSON object.');
  return parsed as JsonObject;
}

/** A snapshot document sent as the body, as text; refused when larger than SNAPSHOT_MAX_BYTES or not UTF-8. */
export async function readSnapshotText(req: IncomingMessage): Promise<string> {
  const raw = await readBody(req, SNAPSHOT_MAX_BYTES);
  if (!raw) throw new AdminRefusal('payloadTooLarge', `The snapshot is larger than ${SNAPSHOT_MAX_BYTES} bytes.`, undefined, { connection: 'close' });
  const text = utf8(raw);
  if (text === undefined) throw new AdminRefusal('validation', 'The snapshot was refused, nothing changed: it is not UTF-8 text.');
  return text;
}
