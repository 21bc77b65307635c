// The live progress line of `rdx run`: one line on a terminal, redrawn in place while the cases run (cases done of
// the total, failures so far, the suite files in flight, time elapsed and left, time waited on the target's rate
// limit). It lives on stderr, so a redirected stdout (a JSON, XML or TAP document, or a log) never carries it.
//
// Two rules keep it cheap and keep other output whole:
// - It is redrawn by a timer (unref'd, at most every REDRAW_MS), and only when its text changed: the engine's events
//   only count, they never write.
// - While it is shown, every write to stdout and stderr that reaches the terminal (mocha's reporters, rdx's console,
//   warnings) first erases it; the line comes back right after a write that ended its line. A write that leaves a
//   line open (the dot reporter's dots) holds the line back until that line is ended, rather than drawing over it.
import type { ProgressCase, RunProgress } from '../core/progress.js';
import type { Verdict } from '../core/results.js';
import { escapeTerminal } from '../core/terminal.js';

/** A stream the line is drawn on or keeps clean: process.stderr and process.stdout, or a fake of them in tests. */
export interface LineStream {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string | Uint8Array, ...rest: never[]): boolean;
}

export interface ProgressLineOptions {
  /** Where the line is drawn (default process.stderr). */
  stream?: LineStream;
  /**
   * Streams whose writes erase the line first (default stdout and stderr); only the line's own stream and those on
   * a terminal are watched, since output to a file or a pipe cannot overwrite the line.
   */
  guard?: LineStream[];
  /** The clock, in ms (tests pass a fake one). */
  now?: () => number;
}

/** How often the line may be redrawn, in ms: ten times a second at most. */
export const REDRAW_MS = 100;
/** Cases done before the line estimates the time left: fewer say too little about the rate. */
export const ESTIMATE_AFTER = 5;
/** Back to the start of the line, and erase it. */
export const ERASE = '\r\x1b[2K';
/** Width assumed when the stream does not say (not a terminal, with --progress; or a terminal of unknown size). */
const DEFAULT_COLUMNS = 80;

/** What the line shows, at one moment. */
export interface ProgressState {
  done: number;
  total: number;
  failed: number;
  elapsedMs: number;
  /** Wall-clock time during which a request waited on the rate limit (HttpClient.waitingMs): at most elapsedMs. */
  waitedMs: number;
  /** The suites with a case under way, in the order they started. */
  inFlight: string[];
}

/** "suites/auth/bearer.yaml" → "auth/bearer", as mocha's suite titles say it; control characters escaped. */
export function suiteName(file: string): string {
  return escapeTerminal(file.replace(/^suites\//, '').replace(/\.ya?ml$/, ''));
}

/** 7 s → "0:07", 65 s → "1:05", 3725 s → "1:02:05". */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const two = (n: number): string => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** The text cut to width characters (by code point), with an ellipsis when cut. */
function cut(text: string, width: number): string {
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** As many suite names as fit in width, then "+N" for the rest: "auth/bearer, jobs/list +3". */
function suitesText(names: string[], width: number): string {
  for (let n = names.length; n > 0; n--) {
    const rest = names.length - n;
    const text = `${names.slice(0, n).join(', ')}${rest ? ` +${rest}` : ''}`;
    if (Array.from(text).length <= width) return text;
  }
  return names.length > 1 ? cut(`${names.length} suites`, width) : cut(names[0] ?? '', width);
}

/**
 * The line, never wider than columns - 1 (writing the last column makes many terminals wrap):
 * "120/460 cases · 2 failed · 0:12 elapsed, ~0:34 left · rate-limit waits 0:03 · auth/bearer, jobs/list +1".
 */
export function progressText(s: ProgressState, columns: number): string {
  const width = Math.max(1, columns - 1);
  const time = `${clock(s.elapsedMs)} elapsed${s.done >= ESTIMATE_AFTER && s.done < s.total ? `, ~${clock((s.elapsedMs / s.done) * (s.total - s.done))} left` : ''}`;
  const parts = [`${s.done}/${s.total} cases`, `${s.failed} failed`, time];
  if (s.waitedMs > 0) parts.push(`rate-limit waits ${clock(s.waitedMs)}`);
  const head = parts.join(' · ');
  const room = width - Array.from(head).length - 3;
  const suites = s.inFlight.length && room > 0 ? ` · ${suitesText(s.inFlight, room)}` : '';
  return cut(head + suites, width);
}

/** Whether rdx run shows the line: as the flag says when given, else on a terminal outside CI (env CI). */
export function progressWanted(flag: boolean | undefined, stream: { isTTY?: boolean } = process.stderr, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag !== undefined) return flag;
  const ci = (env['CI'] ?? '').trim().toLowerCase();
  return stream.isTTY === true && (ci === '' || ci === '0' || ci === 'false');
}

/** The line for rdx run (--progress / --no-progress, else the default above), or none. */
export function progressLineFor(flag: unknown, options: ProgressLineOptions = {}): ProgressLine | undefined {
  const stream = options.stream ?? process.stderr;
  return progressWanted(typeof flag === 'boolean' ? flag : undefined, stream) ? new ProgressLine(options) : undefined;
}

/**
 * Runs a run with rdx run's line (or none, as progressLineFor decides) as its options' progress, and ends the line
 * however the run ends: a run that throws leaves no line and no replaced write behind.
 */
export async function withProgressLine<O extends { progress?: RunProgress }, T>(
  flag: unknown, run: (options: O) => Promise<T>, options: O, line: ProgressLineOptions = {},
): Promise<T> {
  const progress = progressLineFor(flag, line);
  try {
    return await run(progress ? { ...options, progress } : options);
  } finally {
    progress?.end();
  }
}

type Write = LineStream['write'];

/** One live line on a terminal stream while a run goes (see the top of this file). */
export class ProgressLine implements RunProgress {
  private readonly stream: LineStream;
  private readonly guard: LineStream[];
  private readonly now: () => number;
  private readonly write: Write;
  private total = 0;
  private done = 0;
  private failed = 0;
  private waited: () => number = () => 0;
  private startedAt = 0;
  /** Cases under way per suite name; a Map keeps the order they started in. */
  private readonly inFlight = new Map<string, number>();
  /** The text on the terminal now; undefined while the line is not shown. */
  private shown: string | undefined;
  /** The last write through a guarded stream left its line open: the line waits for it to end. */
  private openLine = false;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private restores: (() => void)[] = [];
  private readonly onExit = (): void => { this.end(); };

  constructor(options: ProgressLineOptions = {}) {
    this.stream = options.stream ?? process.stderr;
    this.guard = options.guard ?? [process.stdout, process.stderr];
    this.now = options.now ?? Date.now;
    // The stream's own write, taken before any guard replaces it: the line never erases itself on the way out.
    const own = this.stream.write;
    this.write = own.bind(this.stream) as Write;
  }

  start(run: { total: number; concurrency: number; waitedMs: () => number }): void {
    if (this.running) return;
    this.running = true;
    this.total = run.total;
    this.waited = run.waitedMs;
    this.startedAt = this.now();
    for (const s of new Set([this.stream, ...this.guard])) if (s === this.stream || s.isTTY) this.watch(s);
    // A process that exits mid-run (a second Ctrl-C) leaves no half line before the shell's prompt.
    process.once('exit', this.onExit);
    this.timer = setInterval(() => { this.tick(); }, REDRAW_MS);
    this.timer.unref();
    this.tick();
  }

  caseStarted(c: ProgressCase): void {
    const name = suiteName(c.file);
    this.inFlight.set(name, (this.inFlight.get(name) ?? 0) + 1);
  }

  caseFinished(c: ProgressCase, verdict: Verdict): void {
    this.done++;
    if (verdict === 'fail' || verdict === 'error') this.failed++;
    const name = suiteName(c.file);
    const n = this.inFlight.get(name);
    // A case that never started (not run: the run was stopped) finishes without having been in flight.
    if (n === undefined) return;
    if (n > 1) this.inFlight.set(name, n - 1);
    else this.inFlight.delete(name);
  }

  end(): void {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    process.off('exit', this.onExit);
    this.erase();
    for (const restore of this.restores.splice(0)) restore();
  }

  /** What the line says now. */
  text(): string {
    return progressText({
      done: this.done,
      total: this.total,
      failed: this.failed,
      elapsedMs: this.now() - this.startedAt,
      waitedMs: this.waited(),
      inFlight: [...this.inFlight.keys()],
    }, this.stream.columns || DEFAULT_COLUMNS);
  }

  /** What the timer does: redraws the line when its text changed. */
  tick(): void {
    this.draw(this.text());
  }

  /** Draws the line unless it already reads so, or other output left its line open. */
  private draw(next: string): void {
    if (!this.running || this.openLine || next === this.shown) return;
    this.write(`${ERASE}${next}`);
    this.shown = next;
  }

  private erase(): void {
    if (this.shown === undefined) return;
    this.write(ERASE);
    this.shown = undefined;
  }

  /** Replaces the stream's write: erase the line, write, and bring the line back once the output's line ended. */
  private watch(s: LineStream): void {
    const original = s.write;
    const guarded = ((chunk: string | Uint8Array, ...rest: never[]): boolean => {
      const was = this.shown;
      this.erase();
      const ok = original.call(s, chunk, ...rest);
      if (chunk.length) this.openLine = !endsLine(chunk);
      if (was !== undefined) this.draw(was);
      return ok;
    }) as Write;
    const own = Object.prototype.hasOwnProperty.call(s, 'write');
    s.write = guarded;
    // Put back only what is still ours: whoever replaced it after us (mocha-adapter's JSON escaping) restores theirs.
    this.restores.push(() => {
      if (s.write !== guarded) return;
      if (own) s.write = original;
      else delete (s as Partial<LineStream>).write;
    });
  }
}

function endsLine(chunk: string | Uint8Array): boolean {
  return typeof chunk === 'string' ? chunk.endsWith('\n') : chunk[chunk.length - 1] === 0x0a;
}
