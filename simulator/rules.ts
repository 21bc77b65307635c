// The simulator's reading of spec/interpretations.yaml: the one place where an open point becomes behaviour.
// Defaults that are parameters (page size, status codes, body limit, …) are read from the register. Defaults that
// are a behaviour written in code are listed in IMPLEMENTED and checked against the register at start-up, so a
// changed default stops the simulator with a clear message instead of leaving it silently different.
import { isDeepStrictEqual } from 'node:util';
import { interpretations, loadSchema, resourceInfo, simulatorDefault } from '../src/spec/index.js';

/** The outcomes the simulator answers, named as in interpretation STATUS_CODES. */
export const OUTCOMES = [
  'token', 'created', 'partialSuccess', 'ok', 'validation', 'malformedJson', 'unauthorized', 'notFound',
  'methodNotAllowed', 'unsupportedMediaType', 'payloadTooLarge', 'conflict',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Behaviours the code implements, by interpretation id, as the register's `simulator.default` spells them. */
export const IMPLEMENTED: Readonly<Record<string, unknown>> = {
  LINKING_RULES: 'none',
  JOB_OFFER_UNIQUENESS: 'reject-duplicate',
  FIELD_LIMITS: 'none',
  ATTRIBUTE_VALUE_TYPE: 'string',
  ACTIVITY_STATUS_VALUES: 'free-text',
  // The schemas enforce these; reading them here makes the start-up check compare the register with the schemas.
  JOBBOARD_JOB_OFFER_REQUIRED: resourceInfo('jobboard-job-offer').required,
  USER_REQUIRED: resourceInfo('user').required,
  STATES: 'none',
  STATUS_CODE_BODY_MAPPING: 'conventional',
  ATS_JOB_OFFER_ID: 'reference',
  RECORD_ID: 'numeric-id',
  BATCH_VARIANT: 'by-outcome',
  EMPTY_BATCH: 'success-empty',
  BATCH_ERROR_GRANULARITY: 'one-per-item',
  DATE_FILTER_FORMAT: 'date',
  DATE_FILTER_INCLUSIVITY: 'inclusive',
  NEXT_LINK_FORM: 'absolute',
  SORT_ORDER: 'creation',
  REFERENCE_FILTER_CASE: 'exact',
  USERS_REPLACE: 'replace-all',
  EXPIRES_IN_UNIT: 'seconds',
  SCOPES_REFRESH: 'none',
  EXPIRED_TOKEN: 'refuse-expired',
  EVENTS: 'none',
  VERSIONING: 'none',
  ABSENT_OPTIONAL_FIELD: 'omit',
  NULL_ENVELOPE_MEMBER: 'omit',
  EXTRA_FIELDS: 'reject',
  PATCH_RESPONSE_ID: 'include',
  DATE_VALUE_FORMAT: 'iso8601',
  ATTRIBUTE_NAME_CONFLICT: 'reject-duplicate',
  REQUEST_CONTENT_TYPE: 'reject',
  TOKEN_IN_QUERY: 'reject',
  PUT_UNKNOWN_ID: 'not-found',
};

/** Interpretations whose default is read as a parameter rather than checked against IMPLEMENTED. */
export const PARAMETERS = [
  'STATUS_CODES', 'PAGE_SIZE', 'LIMITS', 'ERROR_ITEM_DATA', 'PAGINATION_END', 'GRANT_TYPE', 'TOKEN_REQUEST_ENCODING',
  'REFERENCE_LIST_ENCODING',
] as const;

export interface Rules {
  status: Readonly<Record<Outcome, number>>;
  pageSize: number;
  maxBodyBytes: number;
  /** The `data` member of every error item. */
  errorItemData: unknown;
  /** meta.next_link on the last page. */
  paginationEnd: string | null;
  /** The grant_type value accepted besides its absence. */
  grantType: string;
  /** Media types the token endpoint accepts. */
  tokenMediaTypes: readonly string[];
  /** Query parameter names under which a list filter `name` is read. */
  listParamNames(name: string): string[];
}

function fail(id: string, what: string): never {
  throw new Error(`rdx simulator: interpretation ${id} ${what} (spec/interpretations.yaml)`);
}

function positiveInteger(id: string, value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) fail(id, `must default to a positive integer, not ${JSON.stringify(value)}`);
  return value as number;
}

function readStatus(): Record<Outcome, number> {
  const map = simulatorDefault<unknown>('STATUS_CODES');
  if (typeof map !== 'object' || map === null) fail('STATUS_CODES', 'must default to a map of outcome to status');
  const status = {} as Record<Outcome, number>;
  for (const outcome of OUTCOMES) {
    const code = (map as Record<string, unknown>)[outcome];
    if (!Number.isInteger(code) || (code as number) < 100 || (code as number) > 599) {
      fail('STATUS_CODES', `has no HTTP status for outcome ${outcome}`);
    }
    status[outcome] = code as number;
  }
  return status;
}

const PAGINATION_ENDS: Readonly<Record<string, string | null>> = { null: null, 'empty-string': '' };
const TOKEN_ENCODINGS: Readonly<Record<string, string>> = { json: 'application/json', form: 'application/x-www-form-urlencoded' };
const LIST_ENCODINGS: Readonly<Record<string, (name: string) => string>> = { repeat: (n) => n, brackets: (n) => `${n}[]` };

function listOf(id: string, known: Readonly<Record<string, unknown>>): string[] {
  const value = simulatorDefault<unknown>(id);
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) if (typeof item !== 'string' || !(item in known)) fail(id, `names ${JSON.stringify(item)}, which the simulator does not implement`);
  return list as string[];
}

/** Throws when the register's default for an open point is not what the simulator's code does. */
export function checkImplemented(): void {
  for (const [id, expected] of Object.entries(IMPLEMENTED)) {
    const actual = simulatorDefault<unknown>(id);
    if (!isDeepStrictEqual(actual, expected)) {
      fail(id, `now defaults to ${JSON.stringify(actual)} but the simulator implements ${JSON.stringify(expected)}; change simulator/ to match`);
    }
  }
  const known = new Set<string>([...Object.keys(IMPLEMENTED), ...PARAMETERS]);
  for (const { id } of interpretations()) {
    if (!known.has(id)) fail(id, 'is new: decide what the simulator does and add it to simulator/rules.ts');
  }
}

let cache: Rules | undefined;
export function rules(): Rules {
  if (cache) return cache;
  checkImplemented();
  const limits = simulatorDefault<{ bodyBytes?: unknown } | null>('LIMITS');
  const end = simulatorDefault<unknown>('PAGINATION_END');
  if (typeof end !== 'string' || !(end in PAGINATION_ENDS)) fail('PAGINATION_END', `default ${JSON.stringify(end)} is not implemented`);
  const errorData = simulatorDefault<unknown>('ERROR_ITEM_DATA');
  if (errorData !== 'null') fail('ERROR_ITEM_DATA', `default ${JSON.stringify(errorData)} is not implemented`);
  const grantType = simulatorDefault<unknown>('GRANT_TYPE');
  if (typeof grantType !== 'string') fail('GRANT_TYPE', 'must default to a grant_type value');
  // spec/schemas/token.json declares what the simulator accepts (so that the OpenAPI says what it enforces).
  const declared = ((loadSchema('token.json')['$defs'] as Record<string, { properties?: Record<string, { enum?: unknown }> }>)['request']?.properties?.['grant_type']?.enum);
  if (!isDeepStrictEqual(declared, [grantType])) {
    fail('GRANT_TYPE', `defaults to ${JSON.stringify(grantType)} but spec/schemas/token.json declares grant_type enum ${JSON.stringify(declared)}; make them agree`);
  }
  const listEncodings = listOf('REFERENCE_LIST_ENCODING', LIST_ENCODINGS);
  cache = {
    status: readStatus(),
    pageSize: positiveInteger('PAGE_SIZE', simulatorDefault<unknown>('PAGE_SIZE')),
    maxBodyBytes: positiveInteger('LIMITS', limits?.bodyBytes),
    errorItemData: null,
    paginationEnd: PAGINATION_ENDS[end] ?? null,
    grantType,
    tokenMediaTypes: listOf('TOKEN_REQUEST_ENCODING', TOKEN_ENCODINGS).map((e) => TOKEN_ENCODINGS[e] as string),
    listParamNames: (name) => listEncodings.map((e) => (LIST_ENCODINGS[e] as (n: string) => string)(name)),
  };
  return cache;
}
