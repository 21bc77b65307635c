// A minimal ustar writer and reader for the certification bundle. Our own rather than the `tar` package: the bundle
// holds a handful of small regular files, the writer must be byte-for-byte deterministic, and `rdx verify` must read
// a bundle in memory without ever writing an entry to disk (so a hostile archive cannot plant files anywhere).

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

/** A ustar archive of regular files (mode 0644, owner 0:0) with the given modification time. */
export function tarPack(entries: TarEntry[], mtime: Date): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    if (Buffer.byteLength(entry.name) > 100 || entry.name.includes('..') || entry.name.startsWith('/')) {
      throw new TarError(`tar: unsupported entry name ${entry.name}`);
    }
    const header = Buffer.alloc(BLOCK);
    field(header, 0, 100, entry.name);
    octal(header, 100, 8, 0o644);
    octal(header, 108, 8, 0);
    octal(header, 116, 8, 0);
    octal(header, 124, 12, entry.data.length);
    octal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
    field(header, 148, 8, ' '.repeat(8));
    field(header, 156, 1, '0');
    field(header, 257, 6, 'ustar\0');
    field(header, 263, 2, '00');
    field(header, 265, 32, 'rdx');
    field(header, 297, 32, 'rdx');
    octal(header, 148, 7, checksum(header));
    header[155] = 0x20;
    blocks.push(header, entry.data, Buffer.alloc((BLOCK - (entry.data.length % BLOCK)) % BLOCK));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(blocks);
}

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

/**
 * The regular files of a tar archive (ustar, with pax or GNU long names as other tools write them). Directories
 * are skipped; links and devices are refused, as no bundle holds one. Throws TarError when the archive is broken.
 */
export function tarUnpack(archive: Buffer, maxEntries = Infinity): TarEntry[] {
  const entries: TarEntry[] = [];
  // Every header counts (pax and long-name ones too), so a crafted archive of empty entries stops here.
  let headers = 0;
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) return entries;
    if (++headers > maxEntries) throw new TarError(`tar: more than ${maxEntries} entries, far more than a bundle holds; not read further`);
    if (number(header, 148, 8, 'checksum') !== checksum(header)) throw new TarError(`tar: header checksum mismatch at byte ${offset}`);
    const size = number(header, 124, 12, 'size');
    const type = String.fromCharCode(header[156] as number);
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new TarError('tar: archive ends inside an entry');
    const data = archive.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    if (type === 'g' || type === '5') continue;
    if (type !== '0' && type !== '\0') throw new TarError(`tar: entry of type "${type}" (only regular files belong in a bundle)`);
    const prefix = text(header, 345, 155);
    const name = (longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100))).replace(/^\.\//, '');
    longName = undefined;
    entries.push({ name, data: Buffer.from(data) });
  }
  throw new TarError('tar: archive has no end-of-archive marker');
}
