// Reference docs generated from their sources, so they cannot drift: docs/cli.md from the yargs definitions of every
// command, docs/profile.md from the profile schema and the interpretation register, docs/personas.md from the
// personas, docs/api.md's error codes from ERROR_CODES. Each file keeps hand-written text around a generated block; `node build/scripts/docs.js --write`
// rewrites the blocks and scripts/docs.test.ts fails when one is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import yargs from '../src/cli/yargs.js';
import { clause as clauseOf, interpretations, packageRoot } from '../src/spec/index.js';
import { readProfileSchema } from '../src/config/profile.js';
import { KNOWN_MISSES } from '../src/selfcheck/index.js';
import { allPersonas, type Persona } from '../simulator/personas/index.js';
import { COMMANDS, globalOptions } from '../src/cli/main.js';
import { ERROR_CODES, EXIT } from '../src/errors.js';

/** yargs' instance type, through the CLI's yargs module: the package itself is imported in src/cli alone. */
type Argv = ReturnType<typeof yargs>;

export const REGENERATE = 'node build/scripts/docs.js --write';
const begin = (name: string): string => `<!-- generated: ${name} by \`${REGENERATE}\` from its source; a test keeps it true -->`;
const END = '<!-- generated: end -->';

interface YargsOptions {
  key: Record<string, unknown>;
  alias: Record<string, string[]>;
  boolean: string[];
  string: string[];
  number: string[];
  array: string[];
  default: Record<string, unknown>;
  choices: Record<string, unknown[]>;
  hiddenOptions: string[];
}

interface Internals {
  getInternalMethods(): { getUsageInstance(): { getDescriptions(): Record<string, string>; getUsage(): [string, string][] } };
}

/** Text for a Markdown table cell: pipes escaped, one line, and <placeholders> shown rather than read as HTML. */
const cell = (text: string): string => prose(text).replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const prose = (text: string): string => text.replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One table row per option of a yargs instance, in definition order; camelCase spellings and aliases folded in. */
function optionRows(y: Argv, skip: Set<string>, positionals: string[] = []): string[] {
  const o = (y as unknown as { getOptions(): YargsOptions }).getOptions();
  const descriptions = (y as unknown as Internals).getInternalMethods().getUsageInstance().getDescriptions();
  const aliases = new Set(Object.values(o.alias).flat());
  return Object.keys(o.key)
    .filter((k) => !skip.has(k) && !aliases.has(k) && !/[A-Z]/.test(k) && !o.hiddenOptions.includes(k))
    .map((k) => {
      const type = o.boolean.includes(k) ? 'boolean' : o.number.includes(k) ? 'number' : 'string';
      const def = o.default[k];
      const positional = positionals.find((p) => p.replace(/[<>[\].]/g, '') === k);
      const flag = positional ?? (type === 'boolean' && def === true ? `--[no-]${k}` : `--${k}`);
      const names = [flag, ...(o.alias[k] ?? []).map((a) => (a.length === 1 ? `-${a}` : `--${a}`))].map((n) => `\`${n}\``).join(', ');
      const kind = positional ? `argument${o.array.includes(k) ? 's' : ''}` : `${type}${o.array.includes(k) ? ', repeatable' : ''}`;
      const facts = [
        ...(o.choices[k] ? [`one of ${o.choices[k].map((c) => `\`${String(c)}\``).join(', ')}`] : []),
        ...(def !== undefined && !(type === 'boolean' && def === false) ? [`default \`${JSON.stringify(def)}\``] : []),
      ];
      const text = (descriptions[k] ?? '').replace(/^__yargsString__:/, '');
      return `| ${names} | ${kind} | ${cell(text)}${facts.length ? ` (${facts.join('; ')})` : ''} |`;
    });
}

const TABLE_HEAD = ['| Option | Type | Meaning |', '|---|---|---|'];

/** docs/cli.md's generated block: the global options, then every command with its usage text and options. */
export async function cliMarkdown(): Promise<string> {
  const global = globalOptions(yargs([]).scriptName('rdx'));
  const globalKeys = new Set(Object.keys((global as unknown as { getOptions(): YargsOptions }).getOptions().key));
  const lines = [begin('cli'), '', '## Global options', '', 'Every command takes these.', '', ...TABLE_HEAD, ...optionRows(global, new Set()), ''];
  lines.push('## Commands', '', '| Command | What it does |', '|---|---|');
  for (const c of COMMANDS) lines.push(`| [\`rdx ${c.command}\`](#rdx-${c.name}) | ${cell(c.describe)} |`);
  lines.push('');
  for (const c of COMMANDS) {
    const module = await c.load();
    const y = module.builder(yargs([]).scriptName('rdx'));
    const usage = (y as unknown as Internals).getInternalMethods().getUsageInstance().getUsage()[0]?.[0] ?? `rdx ${c.command}`;
    const [synopsis = '', ...rest] = usage.split('\n');
    lines.push(`### rdx ${c.name}`, '', '```text', synopsis, '```', '');
    const about = rest.join('\n').trim();
    lines.push(about ? `${prose(about)}\n` : `${prose(c.describe)}.\n`);
    const rows = optionRows(y, globalKeys, c.command.match(/[<[]\w+(\.\.)?[>\]]/g) ?? []);
    lines.push(...(rows.length ? [...TABLE_HEAD, ...rows] : ['No options beyond the global ones.']), '');
  }
  lines.push(END);
  return lines.join('\n');
}

/** docs/profile.md's generated block: every key of the profile schema, then every `declared:` key of the register. */
export function profileMarkdown(): string {
  interface Prop {
    type?: string; description?: string; minimum?: number; maximum?: number; items?: { type?: string };
    properties?: Record<string, Prop>; $ref?: string;
  }
  const schema = readProfileSchema() as { properties: Record<string, Prop>; $defs?: Record<string, Prop> };
  const rows: string[] = [];
  const seenRefs = new Set<string>();
  const walk = (props: Record<string, Prop>, prefix: string): void => {
    const shared: Record<string, Prop>[] = [];
    for (const [name, given] of Object.entries(props)) {
      const key = `${prefix}${name}`;
      // A shared definition (idSources.*): its type here, its keys once, as `<parent>.*.<key>`.
      const def = given.$ref ? schema.$defs?.[given.$ref.replace('#/$defs/', '')] : undefined;
      const p: Prop = def ? { ...def, ...given, properties: {} } : given;
      const type = p.type === 'array' ? `array of ${p.items?.type ?? 'any'}` : p.type ?? 'any';
      const range = p.minimum !== undefined && p.maximum !== undefined ? `${p.minimum} to ${p.maximum}`
        : p.minimum !== undefined ? `≥ ${p.minimum}` : p.maximum !== undefined ? `≤ ${p.maximum}` : '';
      rows.push(`| \`${key}\` | ${type}${range ? `, ${range}` : ''} | ${cell(p.description ?? '')} |`);
      if (p.properties && name !== 'declared') walk(p.properties, `${key}.`);
      if (def?.properties && given.$ref && !seenRefs.has(given.$ref)) {
        seenRefs.add(given.$ref);
        shared.push(def.properties);
      }
    }
    for (const props of shared.splice(0)) walk(props, `${prefix}*.`);
  };
  walk(schema.properties, '');
  const declared = interpretations().filter((i) => i.key).map((i) => {
    const values = Array.isArray(i.values) ? i.values.map((v) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``).join(', ') : cell(String(i.values ?? ''));
    return `| \`declared.${i.key}\` | ${i.id} | ${cell(i.question)} | ${values} | ${cell(i.simulator.text)} |`;
  });
  return [
    begin('profile'), '',
    '## Keys', '', '| Key | Type | Meaning |', '|---|---|---|', ...rows, '',
    '## Declared choices (`declared:`)', '',
    'One key per open point of `spec/interpretations.yaml` that a vendor may declare.', '',
    '| Key | Open point | Question | Allowed values | The bundled simulator |', '|---|---|---|---|---|', ...declared, '',
    END,
  ].join('\n');
}

/** docs/api.md's table of error codes, from ERROR_CODES. */
function errorCodesMarkdown(): string {
  const exitName = new Map<number, string>(Object.entries(EXIT).map(([name, code]) => [code, name]));
  return [
    begin('errors'),
    '| `error.code` | exit code | when |', '|---|---|---|',
    ...Object.entries(ERROR_CODES).map(([code, { exit, when }]) => `| \`${code}\` | ${exit} (\`${exitName.get(exit) ?? ''}\`) | ${cell(when)} |`),
    END,
  ].join('\n');
}

/** A persona's description in a table cell: pipes escaped (a description is one line of plain text). */
const personaCell = (text: string): string => text.replace(/\|/g, '\\|');

/** docs/personas.md's list of personas, from their own descriptions; † marks a known miss of the self-check. */
export function personasMarkdown(personas: Persona[] = allPersonas()): string {
  const faults = personas.filter((p) => p.kind === 'fault');
  const variants = personas.filter((p) => p.kind === 'variant');
  const marks = (p: Persona): string => `${p.name in KNOWN_MISSES ? ' †' : ''}${p.forExploration ? ' ‡' : ''}`;
  const breaks = (p: Persona): string => (p.breaks ?? []).map((id) => `${id} (${clauseOf(id).level})`).join(', ');
  return [
    begin('personas'),
    '<details><summary>' + `${faults.length} fault personas (--fault NAME)` + '</summary>',
    '',
    '| Fault | Breaks | What it does |',
    '|---|---|---|',
    ...faults.map((p) => `| \`${p.name}\`${marks(p)} | ${breaks(p)} | ${personaCell(p.description)} |`),
    '',
    ...(Object.keys(KNOWN_MISSES).length
      ? ['† Not caught yet: the suites lack the case that would catch it (the self-check names the change, and fails once it is caught so that the mark comes off).', '']
      : []),
    '‡ Made to show what exploration catches (docs/explore.md): the hand-written cases miss it, an explore case must catch it.',
    '',
    '</details>',
    '<details><summary>' + `${variants.length} legal variants (--variant NAME)` + '</summary>',
    '',
    '| Variant | Open point | What it does |',
    '|---|---|---|',
    ...variants.map((p) => `| \`${p.name}\` | ${(p.interprets ?? []).join(', ') || '—'} | ${personaCell(p.description)} |`),
    '',
    '</details>',
    END,
  ].join('\n');
}

/** The generated blocks of each docs file. */
export async function generatedBlocks(): Promise<{ file: string; begin: string; end: string; text: string }[]> {
  return [
    { file: 'docs/cli.md', begin: begin('cli'), end: END, text: await cliMarkdown() },
    { file: 'docs/profile.md', begin: begin('profile'), end: END, text: profileMarkdown() },
    { file: 'docs/personas.md', begin: begin('personas'), end: END, text: personasMarkdown() },
    { file: 'docs/api.md', begin: begin('errors'), end: END, text: errorCodesMarkdown() },
  ];
}

/** The block of a file between its markers (markers included), or undefined when it has none. */
export function currentBlock(text: string, beginMarker: string, endMarker: string): string | undefined {
  const start = text.indexOf(beginMarker);
  const end = text.indexOf(endMarker, start);
  return start < 0 || end < 0 ? undefined : text.slice(start, end + endMarker.length);
}

async function write(): Promise<void> {
  for (const block of await generatedBlocks()) {
    const path = join(packageRoot, block.file);
    const text = readFileSync(path, 'utf8');
    const old = currentBlock(text, block.begin, block.end);
    if (old === undefined) throw new Error(`${block.file} has no generated block (${block.begin})`);
    writeFileSync(path, text.replace(old, () => block.text));
    process.stdout.write(`${block.file}: generated block written\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--write')) {
  write().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 70;
  });
}
