// rdx init --base-url: the target's own job offers as candidates for fixtures.atsJobOfferIds, the profile to read
// them with (flags and environment only: the file init writes is not read), and how they are shown. Everything the
// target sent is shown escaped (escapeTerminal), on the console and in the comments of the file alike: a reference
// holding a line break must not end a YAML comment and write a key of its own.
import { defaults, isHttpUrl, numberFlag, type Profile } from '../../config/profile.js';
import { UsageError } from '../../errors.js';
import { escapeTerminal } from '../../core/terminal.js';
import { stripUserinfo } from '../../http/redact.js';
import { MAX_CANDIDATES, MAX_PROBES, offerable, type FixtureSearch } from '../../engine/fixture-candidates.js';

/** How long a listed title may be on its line. */
const TITLE_WIDTH = 60;

/** The profile init reads the target with: --base-url, --token-url and the http flags, credentials as rdx run takes them. */
export function initProfile(argv: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Profile {
  const profile = defaults();
  for (const [flag, key] of [['base-url', 'baseUrl'], ['token-url', 'tokenUrl']] as const) {
    const value = argv[key];
    if (value === undefined) continue;
    if (!isHttpUrl(String(value))) throw new UsageError(`--${flag} ${JSON.stringify(stripUserinfo(String(value)))} is not an http(s) URL`, 'RDX_ERR_CONFIG');
    profile[key] = String(value);
  }
  const clientId = argv['clientId'] ?? env['RDX_CLIENT_ID'];
  const clientSecret = argv['clientSecret'] ?? env['RDX_CLIENT_SECRET'];
  if (typeof clientId === 'string' && clientId !== '') profile.clientId = clientId;
  if (typeof clientSecret === 'string' && clientSecret !== '') profile.clientSecret = clientSecret;
  if (argv['timeout'] !== undefined) profile.http.timeoutMs = numberFlag('--timeout', argv['timeout'], ['http', 'timeoutMs'], 'milliseconds (10000 is 10 s)');
  if (argv['insecure'] !== undefined) profile.http.insecure = argv['insecure'] === true;
  if (typeof argv['ca'] === 'string') profile.http.ca = argv['ca'];
  if (typeof argv['proxy'] === 'string') profile.http.proxy = argv['proxy'];
  return profile;
}

/** One listed job offer: its reference as a JSON string (as the config writes it), then its title; escaped. */
function candidateLine(c: FixtureSearch['candidates'][number]): string {
  const title = c.title === undefined ? '' : c.title.length > TITLE_WIDTH ? `${c.title.slice(0, TITLE_WIDTH - 1)}…` : c.title;
  return escapeTerminal(`${JSON.stringify(c.reference)}${title ? `  ${title}` : ''}`);
}

/** What the search found, as lines (no comment marks): the candidates, which one was chosen and how to change it. */
export function searchLines(search: FixtureSearch, file: string): string[] {
  const where = escapeTerminal(stripUserinfo(search.listUrl));
  if (search.problem !== undefined) return [`could not list the target's job offers (GET ${where}): ${escapeTerminal(search.problem)}; fixtures.atsJobOfferIds is left for you to fill in`];
  if (search.candidates.length === 0) return [`the target holds no ATS job offer (GET ${where} listed none): create one, then give its {id} as fixtures.atsJobOfferIds`];
  const shown = `first page, ${search.candidates.length} shown${search.more ? `; it holds more (at most ${MAX_CANDIDATES} are shown)` : ''}`;
  const lines = [`ATS job offers the target holds, by reference (GET ${where}, ${shown}):`, ...search.candidates.map((c) => `  ${candidateLine(c)}`)];
  const tried = search.tried.map((t) => `${escapeTerminal(JSON.stringify(t.reference))} (${t.status ?? 'no answer'})`).join(', ');
  if (search.chosen !== undefined) {
    lines.push(`chosen: fixtures.atsJobOfferIds: [${escapeTerminal(JSON.stringify(search.chosen))}] (GET /ats/job-offers/{id} read it back by its reference); to use another, edit fixtures in ${file}`);
  } else {
    lines.push(`none chosen: ${tried ? `the first ${Math.min(MAX_PROBES, search.tried.length)} reference(s) tried as {id} did not read back their job offer (${tried})` : 'no reference can be written as it is'}, so {id} is not the reference, and no answer shows an ATS job offer's {id} (RECORD.ATS_NO_ID): look up the {id} of one of these in your own store and set fixtures.atsJobOfferIds in ${file}`);
  }
  return lines;
}

/**
 * The `fixtures:` entry for atsJobOfferIds: the chosen reference as the value when one read back, else commented;
 * the listed job offers as comments either way. Without a search, the template's own advice.
 */
export function atsJobOfferIdsEntry(search: FixtureSearch | undefined): string {
  const advice = `  # {id} values of existing ATS job offers, if {id} is not the job offer's reference. No answer of the API shows
  # one (RECORD.ATS_NO_ID): take it from your own store, e.g. the id of any row of your job offers table, or a
  # line of the id log (or the answer of the command) your idSources below names for a job offer you created.`;
  if (!search) return `${advice}\n  # rdx init --base-url URL lists the job offers the target holds and picks one it can read back.\n  # atsJobOfferIds: ["123"]`;
  const listed = search.candidates.map((c) => `  #   ${candidateLine(c)}`);
  const found = search.problem !== undefined ? [`  # rdx init could not list the target's job offers: ${escapeTerminal(search.problem)}`]
    : listed.length === 0 ? ['  # rdx init found no ATS job offer on the target.']
      : [`  # Job offers the target listed when rdx init read GET ${escapeTerminal(stripUserinfo(search.listUrl))} (by reference):`, ...listed];
  const chosen = search.chosen;
  const value = chosen !== undefined && offerable(chosen)
    ? ['  # rdx init chose the first one GET /ats/job-offers/{id} read back by its reference; replace it to use another.', `  atsJobOfferIds: [${JSON.stringify(chosen)}]`]
    : ['  # None read back by its reference as {id}: give the {id} your store holds for one of them.', '  # atsJobOfferIds: ["123"]'];
  return [advice, ...found, ...value].join('\n');
}
