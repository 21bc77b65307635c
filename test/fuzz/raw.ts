// A bare HTTP/1.1 client over node:net for tests that must send what no well-behaved client would: invalid bytes
// in the request line, duplicate or malformed headers, broken chunk framing, bodies that never end. It reads the
// answer itself (Content-Length, chunked, or up to the close) and gives up at a deadline, so a server that never
// answers shows up as a timeout instead of a hung test.
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export type RawOutcome =
  | { kind: 'response'; response: RawResponse; elapsedMs: number }
  | { kind: 'timeout' | 'closed' | 'error'; detail: string; partial: string; elapsedMs: number };

export interface RawRequest {
  /** The request line and headers, blank line included, as bytes (latin1 keeps each char one byte). */
  head: Buffer;
  body?: Buffer;
  /**
   * A body written piece by piece until `total` bytes are out or an answer starts arriving, whichever comes
   * first: how a client uploading more than the server accepts behaves.
   */
  stream?: { piece: Buffer; total: number; chunked: boolean };
}

export interface RawOptions {
  host: string;
  port: number;
  timeoutMs: number;
}

/** Where the answer ends: undefined while more bytes are needed. */
function complete(buffer: Buffer, closed: boolean): RawResponse | undefined {
  let start = 0;
  // Interim 1xx answers (100 Continue) come before the real one.
  for (let guard = 0; guard < 8; guard++) {
    const end = buffer.indexOf('\r\n\r\n', start, 'latin1');
    if (end === -1) return undefined;
    const lines = buffer.subarray(start, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
    if (Number.isNaN(status)) return closed ? { status: 0, headers: {}, body: buffer } : undefined;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      start = bodyStart;
      continue;
    }
    const rest = buffer.subarray(bodyStart);
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(rest);
      return body ? { status, headers, body } : undefined;
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const n = Number(length);
      return rest.length >= n ? { status, headers, body: rest.subarray(0, n) } : undefined;
    }
    return closed ? { status, headers, body: rest } : undefined;
  }
  return undefined;
}

/** The body of a complete chunked encoding, or undefined while the last chunk has not arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (let guard = 0; guard < 1_000_000; guard++) {
    const lineEnd = data.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    const from = lineEnd + 2;
    if (data.length < from + size + 2) return undefined;
    parts.push(data.subarray(from, from + size));
    at = from + size + 2;
  }
  return undefined;
}

/** Sends one request on a fresh connection and reads one answer, within timeoutMs. Never rejects. */
export function rawExchange(request: RawRequest, options: RawOptions): Promise<RawOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10;
  return new Promise((resolve) => {
    const socket = connect({ host: options.host, port: options.port });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: RawOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const partial = (): string => received.subarray(0, 300).toString('latin1');
    const timer = setTimeout(() => finish({ kind: 'timeout', detail: `no complete answer within ${options.timeoutMs} ms`, partial: partial(), elapsedMs: elapsed() }), options.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const response = complete(received, false);
      if (response) finish({ kind: 'response', response, elapsedMs: elapsed() });
    });
    const ended = (detail: string): void => {
      const response = complete(received, true);
      if (response && response.status > 0) finish({ kind: 'response', response, elapsedMs: elapsed() });
      else finish({ kind: received.length > 0 ? 'error' : 'closed', detail, partial: partial(), elapsedMs: elapsed() });
    };
    // A server that answers early (413) and closes makes our writes fail; what it answered still counts.
    socket.on('error', (error: Error & { code?: string }) => ended(error.code ?? error.message));
    socket.on('close', () => ended('the connection closed'));
    socket.on('connect', () => {
      socket.write(request.head);
      if (request.body) socket.write(request.body);
      if (request.stream) void pump(request.stream);
    });
    const pump = async (stream: NonNullable<RawRequest['stream']>): Promise<void> => {
      let sent = 0;
      while (sent < stream.total && !settled && received.length === 0 && socket.writable) {
        const piece = stream.piece.subarray(0, Math.min(stream.piece.length, stream.total - sent));
        const framed = stream.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
        sent += piece.length;
        if (!socket.write(framed)) {
          await new Promise<void>((done) => {
            const go = (): void => {
              socket.off('drain', go);
              socket.off('data', go);
              socket.off('close', go);
              done();
            };
            socket.once('drain', go);
            socket.once('data', go);
            socket.once('close', go);
          });
        }
      }
      if (stream.chunked && sent >= stream.total && socket.writable && !settled) socket.write('0\r\n\r\n');
    };
  });
}
