// Content coding (RFC 9110 §8.4): the harness asks for gzip, deflate and br like any ordinary client, and reads a body
// by its Content-Encoding within the size cap, counting the DECODED bytes: a few KiB that inflate to gigabytes (a
// decompression bomb) are cut at the cap like an endless body. Bytes that do not match their headers stay unreadable.
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Transform } from 'node:stream';
import { utf8Text } from '../core/utf8.js';

/** What every request says it accepts, unless the step sets its own Accept-Encoding. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The decoders' output chunk, in bytes (zlib's default is 16 KiB): each chunk is a turn of the stream, and a body that
 * decodes to 20 MiB took 1,280 of them; at 256 KiB it decodes in less than half the CPU (measured, 190 → 70 ms).
 */
const DECODED_CHUNK = 256 * 1024;

// A Map, not an object: a coding named "__proto__" or "constructor" is a coding the harness does not know.
const DECODERS = new Map<string, (first: Buffer, chunkSize: number) => Transform>([
  ['gzip', (_, chunkSize) => createGunzip({ chunkSize })],
  ['x-gzip', (_, chunkSize) => createGunzip({ chunkSize })],
  // "deflate" is the zlib format (RFC 9110 §8.4.1.2), but servers have long sent raw deflate under that name too.
  ['deflate', (first, chunkSize) => (looksZlib(first) ? createInflate({ chunkSize }) : createInflateRaw({ chunkSize }))],
  ['br', (_, chunkSize) => createBrotliDecompress({ chunkSize })],
]);

/**
 * Codings one body may stack. The harness asks for one; a proxy may add a second. A body labelled with thousands
 * (gzip, gzip, …) would take minutes of CPU to undo, so past this it is a body problem, not decoded.
 */
export const MAX_CODINGS = 3;

function looksZlib(bytes: Buffer): boolean {
  const [cmf, flg] = [bytes[0], bytes[1]];
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

/** The codings of a Content-Encoding header in the order they were applied; identity dropped. */
export function codingsOf(header: string | undefined): string[] {
  return (header ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
}

export interface DecodedBody {
  text: string;
  /** Why the body cannot be read as sent (cut at the cap, an unknown coding, bytes that do not decode). */
  problem?: string;
}

/**
 * Undoes the codings (last applied first), stopping once the decoded bytes pass `cap`. `rawCut` says the encoded
 * bytes were already cut at the cap, so a stream that ends early is that cut, not a broken coding.
 */
export async function decodeBody(raw: Buffer, codings: string[], cap: number, rawCut = false, signal?: AbortSignal): Promise<DecodedBody> {
  const unknown = codings.find((c) => !DECODERS.has(c));
  if (unknown !== undefined) {
    return { text: '', problem: `the body is encoded as ${JSON.stringify(unknown.slice(0, 40))}, which the harness did not ask for and cannot decode (it sends Accept-Encoding: ${ACCEPT_ENCODING})` };
  }
  if (codings.length > MAX_CODINGS) {
    return { text: '', problem: `the body is labelled with ${codings.length} stacked codings (Content-Encoding), more than the ${MAX_CODINGS} the harness undoes; it asked for one (Accept-Encoding: ${ACCEPT_ENCODING})` };
  }
  let bytes = raw;
  for (const coding of [...codings].reverse()) {
    signal?.throwIfAborted();
    // No larger than the cap needs (zlib's least is 64 bytes).
    const decoder = (DECODERS.get(coding) as (first: Buffer, chunkSize: number) => Transform)(bytes, Math.max(64, Math.min(DECODED_CHUNK, cap + 1)));
    const step = await inflate(bytes, decoder, cap, signal);
    bytes = step.bytes;
    if (step.cut) return { text: utf8Text(bytes), problem: `the body decoded from ${coding} exceeds the ${cap}-byte cap and was cut (the cap counts decoded bytes)` };
    if (step.error !== undefined) {
      if (rawCut) return { text: utf8Text(bytes), problem: `the body exceeds the ${cap}-byte cap and was cut` };
      return { text: utf8Text(raw), problem: `the body does not decode as ${coding}, as its Content-Encoding says (${step.error})` };
    }
  }
  if (rawCut) return { text: utf8Text(bytes), problem: `the body exceeds the ${cap}-byte cap and was cut` };
  return { text: utf8Text(bytes) };
}

async function inflate(input: Buffer, decoder: Transform, cap: number, signal?: AbortSignal): Promise<{ bytes: Buffer; cut: boolean; error?: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const source = Readable.from([input]);
  source.on('error', () => undefined);
  source.pipe(decoder);
  try {
    for await (const chunk of decoder) {
      // Decoding counts against the request's time limit: a body that takes longer to undo than to fetch ends there.
      signal?.throwIfAborted();
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > cap) {
        chunks.push(buf.subarray(0, buf.length - (size - cap)));
        return { bytes: Buffer.concat(chunks), cut: true };
      }
      chunks.push(buf);
    }
    return { bytes: Buffer.concat(chunks), cut: false };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { bytes: Buffer.concat(chunks), cut: false, error: (error as Error).message };
  } finally {
    source.unpipe(decoder);
    source.destroy();
    decoder.destroy();
  }
}

/**
 * What compressed bytes a body that is not JSON looks like, when no Content-Encoding says it is encoded: a gzip or
 * zlib header. Said in the body problem so the vendor sees why (a proxy that compresses but drops the header).
 */
export function unlabelledCoding(raw: Buffer): string | undefined {
  if (raw[0] === 0x1f && raw[1] === 0x8b) return 'gzip';
  if (raw.length >= 2 && looksZlib(raw) && [0x01, 0x5e, 0x9c, 0xda].includes(raw[1] as number)) return 'deflate (zlib)';
  return undefined;
}
