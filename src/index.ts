// The programmatic API: what `import … from 'rdx-conformance'` gives. Re-exports plus the little wiring that turns
// plain options into what the engine takes, the same way `rdx run` does. Documented in docs/api.md.
import { loadProfile, type Profile, type ProfileFlags } from './config/profile.js';
import { UsageError } from './errors.js';
import { runConformance as runEngine, type RunOptions } from './engine/run.js';
import { exitCodeOf } from './core/verdict.js';
import type { FailOn, RunReport, RunVerdict } from './core/report.js';
import type { Persona, Simulator, SimulatorOptions } from '../simulator/public.js';
import type { SimulatorOptions as OwnSimulatorOptions } from '../simulator/options.js';
import { allPersonas as ownPersonas, personaByName as ownPersona } from '../simulator/personas/index.js';
import { embeddedSimulator, startSimulator as startOwn } from './compose.js';
import { newKeyPair, signingKey, verifyingKey } from './reporters/bundle.js';
import { checkBundleFile, writeBundle, type BundleCheck, type WrittenBundle } from './reporters/certify.js';

export type { Simulator, SimulatorOptions, Persona, PersonaInfo, SeedCounts } from '../simulator/public.js';
export { defineCheck, pass, fail, judge } from './checks/registry.js';
export type { Check, CheckContext, Judgement } from './checks/registry.js';
export { writeReports } from './reporters/files.js';
export type { WrittenReports } from './reporters/files.js';
export type { RunReport, Summary, InterpretationProfile } from './core/report.js';
export type { CaseResult, Exchange, Assertion, Observation, ResidueEntry, TransportErrorKind, Tier, Verdict } from './core/results.js';
export type { CaseFilters } from './engine/plan.js';
export type { Level } from './spec/index.js';
export type { Profile, ProfileFlags } from './config/profile.js';
export { EXIT, ERROR_CODES, HarnessError, UsageError, UnreachableError } from './errors.js';
export type { ErrorCode, ExitCode } from './errors.js';
export { writeKeyPair } from './reporters/certify.js';
export type { WrittenBundle, WrittenKeyPair } from './reporters/certify.js';
export type { Manifest, Trust } from './reporters/bundle.js';

// The simulator's personas and simulators go out, and come back, under their public types (simulator/public.ts), so
// the package's declarations name no store, pipeline or hook type. They are the same objects: the public types are
// the simulator's own with the public Persona put in, and a public Persona is one the simulator made (its brand is
// a type no value holds), so these casts narrow what the types show and change nothing at run time.

/** The bundled simulator's personas (of one kind, or all): to pass in SimulatorOptions.personas. */
export function allPersonas(kind?: Persona['kind']): Persona[] {
  return ownPersonas(kind) as unknown as Persona[];
}

/** The persona of this name (as --fault and --variant take it), or undefined. */
export function personaByName(name: string): Persona | undefined {
  return ownPersona(name) as unknown as Persona | undefined;
}

/** The simulator with the harness behind its dashboard's "Run conformance" (what `rdx simulate` starts). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return (await startOwn(ownOptions(options))) as unknown as Simulator;
}

const ownOptions = (options: SimulatorOptions): OwnSimulatorOptions => options as unknown as OwnSimulatorOptions;

/** The verdict of a whole run (a case's own verdict is `Verdict`: pass, fail, …); docs/verdicts.md. */
export type { RunVerdict, FailOn, ToComplete } from './core/report.js';

export interface ConformanceOptions extends ProfileFlags {
  /** Which cases run (the `rdx run` filter flags). Default: all. */
  filters?: RunOptions['filters'];
  /** A mocha reporter for the console ("spec", "dot", …). Default "none": a library prints nothing. */
  reporter?: string;
  /** Stop after the first failing case. */
  bail?: boolean;
  /** Suite files instead of the bundled suites/. */
  suiteFiles?: string[];
  /** A baseline file of known failures. */
  baseline?: string;
  /** "should": SHOULD warnings fail the run too (`rdx run --fail-on should`). */
  failOn?: FailOn;
  /** exitCode 0 for an INCOMPLETE run (`rdx run --allow-incomplete`); the verdict stays INCOMPLETE. */
  allowIncomplete?: boolean;
  /**
   * Fixtures, as the config file's `fixtures` (docs/profile.md), over the config file's: the {id} of ATS job offers
   * the target holds (so job-offers.read-fixture runs) and an expired token of the target.
   */
  fixtures?: Profile['fixtures'];
  /** Options of the bundled simulator, started when no base URL is given. */
  simulator?: SimulatorOptions;
  /** Where RDX_BASE_URL, RDX_CLIENT_ID and RDX_CLIENT_SECRET are read (default process.env, as `rdx run`). */
  env?: NodeJS.ProcessEnv;
  /** Where ./rdx.config.yaml is looked for when `config` is not given (default process.cwd(), as `rdx run`). */
  cwd?: string;
}

export interface ConformanceResult {
  report: RunReport;
  verdict: RunVerdict;
  /** What `rdx run` would exit with (see EXIT). */
  exitCode: number;
}

/**
 * Runs the conformance suites, against `baseUrl` or, without one, against the bundled simulator on a free loopback
 * port. The profile is resolved as `rdx run` resolves it: these options, then the RDX_* environment, then the
 * config file. Throws on bad options (exit-code 2 errors) and on an unreachable target (3); a finished run returns.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<ConformanceResult> {
  const { filters, reporter, bail, suiteFiles, baseline, simulator, env, cwd, failOn, allowIncomplete, fixtures, ...flags } = options;
  const profile = loadProfile(flags, env ?? process.env, cwd ?? process.cwd());
  if (fixtures !== undefined) profile.fixtures = { ...profile.fixtures, ...checkedFixtures(fixtures) };
  const { report } = await runEngine({
    profile,
    reporter: reporter ?? 'none',
    ...(filters ? { filters } : {}),
    ...(bail !== undefined ? { bail } : {}),
    ...(suiteFiles ? { suiteFiles } : {}),
    ...(baseline !== undefined ? { baseline } : {}),
    ...(failOn ? { failOn } : {}),
    simulator: embeddedSimulator(simulator && ownOptions(simulator)),
  });
  return { report, verdict: report.summary.verdict, exitCode: exitCodeOf(report.summary, allowIncomplete === true) };
}

/** The `fixtures` option, checked as the config file's are: a bad value is a usage error naming it (exit 2). */
function checkedFixtures(fixtures: unknown): Profile['fixtures'] {
  if (typeof fixtures !== 'object' || fixtures === null || Array.isArray(fixtures)) throw new UsageError('options.fixtures: expected an object ({ atsJobOfferIds?, expiredToken? })', 'RDX_ERR_OPTIONS');
  const { atsJobOfferIds, expiredToken, ...rest } = fixtures as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new UsageError(`options.fixtures.${unknown[0]}: unknown key (atsJobOfferIds and expiredToken are known)`, 'RDX_ERR_OPTIONS');
  if (atsJobOfferIds !== undefined) {
    if (!Array.isArray(atsJobOfferIds) || atsJobOfferIds.length === 0) throw new UsageError('options.fixtures.atsJobOfferIds: expected a non-empty list of {id} strings', 'RDX_ERR_OPTIONS');
    const bad = atsJobOfferIds.findIndex((id) => typeof id !== 'string' || id === '');
    if (bad >= 0) throw new UsageError(`options.fixtures.atsJobOfferIds[${bad}]: expected a non-empty string`, 'RDX_ERR_OPTIONS');
  }
  if (expiredToken !== undefined && (typeof expiredToken !== 'string' || expiredToken === '')) throw new UsageError('options.fixtures.expiredToken: expected a non-empty string', 'RDX_ERR_OPTIONS');
  return {
    ...(atsJobOfferIds !== undefined ? { atsJobOfferIds: atsJobOfferIds as string[] } : {}),
    ...(expiredToken !== undefined ? { expiredToken: expiredToken as string } : {}),
  };
}

/** A bundle's check (`rdx verify`): `status` ok, mismatch or malformed, what it found, and the exit code `rdx verify` gives. */
export type BundleVerification = BundleCheck;

export interface VerifyBundleOptions {
  /** The publisher's Ed25519 public key, PEM text (the .pub of `rdx keygen`): the bundle's signature must hold for it. */
  publicKey?: string;
  /** The SHA-256 the publisher published for the bundle's manifest.json. */
  manifestSha256?: string;
}

/**
 * Checks a bundle.tar.gz as `rdx verify` does, offline: every file against manifest.json, and manifest.json against
 * the public key or the pinned hash given, and prints nothing: the result says the verdict
 * (`status`, `trust`), the problems, and `exitCode` (EXIT.OK, EXIT.INTEGRITY_ONLY when neither anchor is given,
 * EXIT.MUST_FAILED on a mismatch, EXIT.USAGE when malformed). Throws a UsageError when the file cannot be read
 * (RDX_ERR_BUNDLE), a key is not an Ed25519 public key (RDX_ERR_KEY) or an option has the wrong type (RDX_ERR_OPTIONS).
 */
export function verifyBundle(file: string, options: VerifyBundleOptions = {}): BundleVerification {
  const { publicKey, manifestSha256 } = options;
  if (typeof file !== 'string' || file === '') throw new UsageError('verifyBundle: expected the bundle.tar.gz file name', 'RDX_ERR_OPTIONS');
  if (publicKey !== undefined && typeof publicKey !== 'string') throw new UsageError('options.publicKey: expected PEM text (read the .pub file)', 'RDX_ERR_OPTIONS');
  if (manifestSha256 !== undefined && typeof manifestSha256 !== 'string') throw new UsageError('options.manifestSha256: expected the hex SHA-256 of manifest.json', 'RDX_ERR_OPTIONS');
  return checkBundleFile(file, {
    ...(publicKey !== undefined ? { publicKey: verifyingKey(publicKey, 'options.publicKey') } : {}),
    ...(manifestSha256 !== undefined ? { manifestSha256 } : {}),
  });
}

export interface CreateBundleOptions {
  /** An Ed25519 private key, PEM text (from `rdx keygen` or generateKeyPair): signs manifest.json (manifest.sig). */
  signKey?: string;
}

/**
 * Writes DIR/bundle.tar.gz of a report, as `rdx report --bundle` does: report.json, junit.xml, report.html,
 * profile.json and manifest.json, signed when `signKey` is given (the signature is made with the bundle: a bundle
 * is never signed afterwards). Returns where it is and the manifest's SHA-256, the value to publish to pin it.
 */
export function createBundle(report: RunReport, dir: string, options: CreateBundleOptions = {}): WrittenBundle {
  const { signKey } = options;
  if (signKey !== undefined && typeof signKey !== 'string') throw new UsageError('options.signKey: expected PEM text of an Ed25519 private key', 'RDX_ERR_OPTIONS');
  return writeBundle(report, dir, signKey === undefined ? undefined : signingKey(signKey, 'options.signKey'));
}

/** A new Ed25519 key pair in memory, PEM text, and the public key's fingerprint; writeKeyPair writes one to files. */
export function generateKeyPair(): { privateKey: string; publicKey: string; fingerprint: string } {
  return newKeyPair();
}
