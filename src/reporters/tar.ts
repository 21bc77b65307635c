// A minimal ustar writer and reader for the certification bundle. Our own rather than the `tar` package: the bundle
// holds a handful of small regular files, the writer must be byte-for-byte deterministic, and `rdx verify` must read
// a bundle in memory without ever writing an entry to disk (so a hostile archive cannot plant files anywhere).
//
// The reader accepts only what the writer writes, byte for byte. A reader that skips what it does not interpret (a
// pax header, a GNU long name, a directory, data after the end) verifies one archive while GNU tar or Python's
// tarfile extract another from the same bytes: a signed bundle must mean one thing to every reader.

export interface TarEntry {
  name: string;
  data: Buffer;
}

export class TarError extends Error {}

const BLOCK = 512;

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'utf8');
}

/** An octal number field: digits padded with zeros, then NUL. */
function octal(header: Buffer, offset: number, length: number, value: number): void {
  field(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

function nameProblem(name: string): string | undefined {
  if (name === '' || Buffer.byteLength(name) > 100 || name.includes('..') || name.startsWith('/') || name.includes('\0')) return `unsupported entry name ${JSON.stringify(name)}`;
  return undefined;
}

/** The header tarPack writes for a regular file: the one form the reader accepts. */
function headerFor(name: string, size: number, mtimeSeconds: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  field(header, 0, 100, name);
  octal(header, 100, 8, 0o644);
  octal(header, 108, 8, 0);
  octal(header, 116, 8, 0);
  octal(header, 124, 12, size);
  octal(header, 136, 12, mtimeSeconds);
  field(header, 148, 8, ' '.repeat(8));
  field(header, 156, 1, '0');
  field(header, 257, 6, 'ustar\0');
  field(header, 263, 2, '00');
  field(header, 265, 32, 'rdx');
  field(header, 297, 32, 'rdx');
  octal(header, 148, 7, checksum(header));
  header[155] = 0x20;
  return header;
}

/** A ustar archive of regular files (mode 0644, owner 0:0) with the given modification time. */
export function tarPack(entries: TarEntry[], mtime: Date): Buffer {
  const blocks: Buffer[] = [];
  const seconds = Math.floor(mtime.getTime() / 1000);
  for (const entry of entries) {
    const problem = nameProblem(entry.name);
    if (problem) throw new TarError(`tar: ${problem}`);
    blocks.push(headerFor(entry.name, entry.data.length, seconds), entry.data, Buffer.alloc(padding(entry.data.length)));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(blocks);
}

const padding = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] as number);
  return sum;
}

function text(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function number(header: Buffer, offset: number, length: number, what: string): number {
  const digits = text(header, offset, length).trim();
  if (!/^[0-7]+$/.test(digits)) throw new TarError(`tar: entry header has a bad ${what} field`);
  return parseInt(digits, 8);
}

const isZero = (data: Buffer): boolean => data.every((b) => b === 0);

/** What an entry of a type other than a regular file is, in the words of the refusal. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  x: 'a pax extended header (it would rename or resize the next entry for GNU tar and Python\'s tarfile)',
  g: 'a pax global header (it would change every later entry for other tools)',
  L: 'a GNU long-name header (it would rename the next entry for other tools)',
  K: 'a GNU long-link header',
  '5': 'a directory entry',
  '1': 'a hard link',
  '2': 'a symbolic link',
};

/** The end-of-archive: exactly the two zero blocks tarPack writes, and nothing after them. */
function checkEnd(archive: Buffer, offset: number): void {
  const rest = archive.length - offset;
  if (rest < 2 * BLOCK || !isZero(archive.subarray(offset + BLOCK, offset + 2 * BLOCK))) throw new TarError(`tar: the end-of-archive marker at byte ${offset} is not two zero blocks`);
  if (rest > 2 * BLOCK) throw new TarError(`tar: ${rest - 2 * BLOCK} byte(s) after the end-of-archive marker at byte ${offset}; rdx writes none, and another tool may read them as entries`);
}

/** The one regular-file header at `offset`, checked to be the header tarPack writes, byte for byte. */
function readHeader(header: Buffer, offset: number, mtime: number | undefined): { name: string; size: number; mtime: number } {
  if (number(header, 148, 8, 'checksum') !== checksum(header)) throw new TarError(`tar: header checksum mismatch at byte ${offset}`);
  const type = String.fromCharCode(header[156] as number);
  if (type !== '0') throw new TarError(`tar: at byte ${offset}, ${TYPE_WORDS[type] ?? `an entry of type "${type}"`}; a bundle holds only the regular files rdx writes`);
  const name = text(header, 0, 100);
  const problem = nameProblem(name);
  if (problem) throw new TarError(`tar: ${problem} at byte ${offset}`);
  const size = number(header, 124, 12, 'size');
  const seconds = number(header, 136, 12, 'mtime');
  if (mtime !== undefined && seconds !== mtime) throw new TarError(`tar: ${name} at byte ${offset} has another modification time than the first entry; rdx writes one for all`);
  const expected = headerFor(name, size, seconds);
  if (!expected.equals(header)) {
    // Name the field that differs, not the checksum that differs with it.
    const at = expected.findIndex((b, i) => b !== header[i] && (i < 148 || i >= 156));
    throw new TarError(`tar: the header of ${name} at byte ${offset} differs from the one rdx writes (at its byte ${at < 0 ? 148 : at}): another tool may read it otherwise`);
  }
  return { name, size, mtime: seconds };
}

/**
 * The regular files of an archive written by tarPack. Anything tarPack does not write is refused with where and
 * why: another entry type (pax or GNU headers, directories, links), a header field set otherwise, a name twice,
 * bytes in the padding, data after the end. Throws TarError.
 */
export function tarUnpack(archive: Buffer, maxEntries = Infinity): TarEntry[] {
  const entries: TarEntry[] = [];
  const names = new Set<string>();
  let offset = 0;
  let mtime: number | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (isZero(header)) {
      checkEnd(archive, offset);
      return entries;
    }
    if (entries.length + 1 > maxEntries) throw new TarError(`tar: more than ${maxEntries} entries, far more than a bundle holds; not read further`);
    const h = readHeader(header, offset, mtime);
    mtime = h.mtime;
    // GNU tar keeps the last of two same-named entries, a reader of the first would check the other one.
    if (names.has(h.name)) throw new TarError(`tar: ${h.name} appears twice in the archive (at byte ${offset} again)`);
    names.add(h.name);
    const start = offset + BLOCK;
    const end = start + h.size + padding(h.size);
    if (end > archive.length) throw new TarError('tar: archive ends inside an entry');
    if (!isZero(archive.subarray(start + h.size, end))) throw new TarError(`tar: the padding after ${h.name} holds data; rdx writes zeros`);
    entries.push({ name: h.name, data: Buffer.from(archive.subarray(start, start + h.size)) });
    offset = end;
  }
  throw new TarError(offset === archive.length ? 'tar: archive has no end-of-archive marker' : `tar: ${archive.length - offset} byte(s) at byte ${offset}, less than a block`);
}
