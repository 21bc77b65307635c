// A persona changes how the simulator behaves: a fault (it breaks clauses of the spec on purpose, so the harness
// can be seen to catch it) or a variant (a legal reading of an open point other than the default). Each is one
// small module under personas/faults/ or personas/variants/, named after its file: being there registers it.
//
// A persona is options plus hooks around the pipeline  route → authenticate → body → handler → serialize:
//   onRequest      before routing; return a response to answer at once (for example a 503 for every request).
//   authenticate   sees the verdict on the bearer token and may return another (accept any token).
//   beforeValidation  the body is parsed (ctx.body) but not yet checked against its schema; change ctx.body to
//                  have another body checked (a lenient server that fills in or coerces fields).
//   beforeHandler  the request is routed, authenticated and its body parsed and validated (ctx.body); return a
//                  response to answer instead of the handler, or change ctx.body.
//   afterHandler   every response, including those refused before the handler (ctx.stage says where it
//                  stopped); change res in place or return a replacement. ctx.rollback() undoes the request's
//                  store writes, so "PATCH not persisted" or "all-or-nothing batches" are a line or two.
//   serialize      return bytes to send instead of the JSON of the body (HTML error pages, broken JSON), or
//                  'sent' after writing to ctx.res yourself (a reset connection).
// Hooks of several personas run in the order given; the first response returned by onRequest, beforeHandler or
// serialize wins. A hook may be async (a slow response); the store write it follows is already done.
import type { PersonaOptions } from '../settings.js';
import type { AuthVerdict, RawResponse, RequestContext, SimResponse } from '../context.js';
import type { Store } from '../store.js';
import type { PersonaKind } from '../admin/wire.js';
import type { IdSources } from '../../src/core/conformance.js';
import type { PersonaInfo } from '../public.js';

export type { AuthVerdict, RawResponse, RequestContext, SimResponse };
export type { JsonObject, Stage } from '../context.js';

type Awaitable<T> = T | Promise<T>;

export interface PersonaHooks {
  onRequest?(ctx: RequestContext): Awaitable<SimResponse | void>;
  authenticate?(ctx: RequestContext, verdict: AuthVerdict): Awaitable<AuthVerdict>;
  beforeValidation?(ctx: RequestContext): Awaitable<void>;
  beforeHandler?(ctx: RequestContext): Awaitable<SimResponse | void>;
  afterHandler?(ctx: RequestContext, res: SimResponse): Awaitable<SimResponse | void>;
  serialize?(ctx: RequestContext, res: SimResponse): Awaitable<RawResponse | 'sent' | void>;
}

/** A persona as the simulator runs it: what a program may read of it (PersonaInfo), its options and hooks. */
export interface Persona extends PersonaInfo {
  /** The name given to --fault or --variant (kebab-case). */
  name: string;
  kind: PersonaKind;
  /** One sentence: what the persona does differently. */
  description: string;
  /** Clause ids of spec/clauses.yaml a fault breaks: exactly these should go red in a harness run. */
  breaks?: string[];
  /**
   * A fault that answers one case with the records of others (the latest step created, whoever created it): which
   * cases see it depends on what runs beside them, so the self-check compares its runs at two concurrencies by
   * verdict and caught clause, not case by case. Says why.
   */
  acrossCases?: string;
  /**
   * A fault the hand-written cases are not meant to catch, made to show that exploration does (docs/explore.md):
   * the self-check requires an explore case among the cases that catch it.
   */
  forExploration?: true;
  /** Interpretation ids of spec/interpretations.yaml a variant reads differently from the default. */
  interprets?: string[];
  /**
   * What a vendor whose implementation behaves like this variant would declare in its target profile
   * (rdx.config.yaml `declared:`, keyed by the interpretation register's `key`); the self-check runs it both ways.
   */
  declared?: Record<string, unknown>;
  /**
   * Variants where {id} of an ATS job offer is not its reference: the {id} of the job offer with this reference
   * (so the harness's run against the simulator can name a seeded job offer as fixtures.atsJobOfferIds).
   */
  atsJobOfferId?(store: Store, reference: string): string | undefined;
  /**
   * What a vendor behaving like this variant puts in its profile besides `declared` (the self-check and the
   * dashboard apply it with the declarations): how the harness learns the {id} of the records it creates.
   */
  profile?: { idSources?: IdSources };
  options?: PersonaOptions;
  hooks: PersonaHooks;
}
