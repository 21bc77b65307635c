// Every persona the simulator knows, for --fault and --variant and for the harness's self-check (src/selfcheck).
import type { Persona } from './types.js';
import { allOrNothingBatch } from './faults/all-or-nothing-batch.js';
import { anyTokenAccepted } from './faults/any-token-accepted.js';
import { applicationStepWithoutId } from './faults/application-step-without-id.js';
import { attributeUpdateEchoesName } from './faults/attribute-update-echoes-name.js';
import { attributeValueOptional } from './faults/attribute-value-optional.js';
import { authRefusedWith400 } from './faults/auth-refused-with-400.js';
import { basicCredentialsAccepted } from './faults/basic-credentials-accepted.js';
import { batchErrorsWithoutData } from './faults/batch-errors-without-data.js';
import { batchIdsRepeated } from './faults/batch-ids-repeated.js';
import { batchStoresFirstOnly } from './faults/batch-stores-first-only.js';
import { countAsString } from './faults/count-as-string.js';
import { createdWithoutIds } from './faults/created-without-ids.js';
import { dataAsObject } from './faults/data-as-object.js';
import { dateFiltersIgnored } from './faults/date-filters-ignored.js';
import { deleteDoesNothing } from './faults/delete-does-nothing.js';
import { duplicateAcrossPages } from './faults/duplicate-across-pages.js';
import { errorWithRecords } from './faults/error-with-records.js';
import { errorWithoutErrors } from './faults/error-without-errors.js';
import { expiredTokenAccepted } from './faults/expired-token-accepted.js';
import { filtersDroppedOnNextPage } from './faults/filters-dropped-on-next-page.js';
import { gapBetweenPages } from './faults/gap-between-pages.js';
import { getReturnsLatest } from './faults/get-returns-latest.js';
import { grantTypeRequired } from './faults/grant-type-required.js';
import { html500OnMalformedJson } from './faults/html-500-on-malformed-json.js';
import { htmlErrorPages } from './faults/html-error-pages.js';
import { invalidItemsStored } from './faults/invalid-items-stored.js';
import { jobOfferIdsInResponses } from './faults/job-offer-ids-in-responses.js';
import { jobOfferListStale } from './faults/job-offer-list-stale.js';
import { jobboardOfferPatchNotPersisted } from './faults/jobboard-offer-patch-not-persisted.js';
import { malformedErrorItems } from './faults/malformed-error-items.js';
import { missingMessage } from './faults/missing-message.js';
import { missingNextLink } from './faults/missing-next-link.js';
import { nextLinkLoop } from './faults/next-link-loop.js';
import { nextLinkToNowhere } from './faults/next-link-to-nowhere.js';
import { noWwwAuthenticate } from './faults/no-www-authenticate.js';
import { oauthErrorOnTokenFailure } from './faults/oauth-error-on-token-failure.js';
import { onlyFirstReference } from './faults/only-first-reference.js';
import { optionalFieldRefused } from './faults/optional-field-refused.js';
import { partialWithoutErrors } from './faults/partial-without-errors.js';
import { patchClearsUnspecified } from './faults/patch-clears-unspecified.js';
import { patchEmptyRejected } from './faults/patch-empty-rejected.js';
import { patchNotPersisted } from './faults/patch-not-persisted.js';
import { plainText429 } from './faults/plain-text-429.js';
import { patchWithoutBearerCheck } from './faults/patch-without-bearer-check.js';
import { putAcceptsMissingRequired } from './faults/put-accepts-missing-required.js';
import { putKeepsOmitted } from './faults/put-keeps-omitted.js';
import { putNotPersisted } from './faults/put-not-persisted.js';
import { referenceFilterIgnored } from './faults/reference-filter-ignored.js';
import { referencePrefixMatch } from './faults/reference-prefix-match.js';
import { refusedPutHalfApplied } from './faults/refused-put-half-applied.js';
import { serverErrorOnBadQuery } from './faults/server-error-on-bad-query.js';
import { statusFilterIgnored } from './faults/status-filter-ignored.js';
import { textNumbersAccepted } from './faults/text-numbers-accepted.js';
import { textPlainContentType } from './faults/text-plain-content-type.js';
import { titlesUppercased } from './faults/titles-uppercased.js';
import { tokenCacheable } from './faults/token-cacheable.js';
import { tokenIgnored } from './faults/token-ignored.js';
import { tokenTypeNotBearer } from './faults/token-type-not-bearer.js';
import { tokenWithoutExpiry } from './faults/token-without-expiry.js';
import { unknownId200 } from './faults/unknown-id-200.js';
import { usersFlatData } from './faults/users-flat-data.js';
import { validItemDropped } from './faults/valid-item-dropped.js';
import { wrongSecretAccepted } from './faults/wrong-secret-accepted.js';
import { allInvalidAsPartial } from './variants/all-invalid-as-partial.js';
import { attributesReversed } from './variants/attributes-reversed.js';
import { authRefused403 } from './variants/auth-refused-403.js';
import { batchAlways207 } from './variants/batch-always-207.js';
import { batchLimit500 } from './variants/batch-limit-500.js';
import { bracketsReferenceLists } from './variants/brackets-reference-lists.js';
import { commaReferenceLists } from './variants/comma-reference-lists.js';
import { createdWith200 } from './variants/created-with-200.js';
import { dateTimeBoundsOnly } from './variants/date-time-bounds-only.js';
import { datesWithOffset } from './variants/dates-with-offset.js';
import { emptyBatchRefused } from './variants/empty-batch-refused.js';
import { emptyPageEnd } from './variants/empty-page-end.js';
import { emptyStringEnd } from './variants/empty-string-end.js';
import { errorItemDetails } from './variants/error-item-details.js';
import { exclusiveDateBounds } from './variants/exclusive-date-bounds.js';
import { expiresInMilliseconds } from './variants/expires-in-milliseconds.js';
import { extraFields } from './variants/extra-fields.js';
import { jsonArrayReferenceLists } from './variants/json-array-reference-lists.js';
import { jsonCharset } from './variants/json-charset.js';
import { jsonOnlyToken } from './variants/json-only-token.js';
import { lenientRequests } from './variants/lenient-requests.js';
import { lowercaseTokenType } from './variants/lowercase-token-type.js';
import { messageOnlyBatch } from './variants/message-only-batch.js';
import { messageOnlyWithIdLogs } from './variants/message-only-with-id-logs.js';
import { newestFirst } from './variants/newest-first.js';
import { nullOptionalFields } from './variants/null-optional-fields.js';
import { numericIdsWithIdLog } from './variants/numeric-ids-with-id-log.js';
import { numericJobOfferIds } from './variants/numeric-job-offer-ids.js';
import { partialSuccess201 } from './variants/partial-success-201.js';
import { partialSuccess400 } from './variants/partial-success-400.js';
import { partialSuccess422 } from './variants/partial-success-422.js';
import { patchWithoutId } from './variants/patch-without-id.js';
import { pathPrefix } from './variants/path-prefix.js';
import { rateLimited } from './variants/rate-limited.js';
import { rateLimitedHttpDate } from './variants/rate-limited-http-date.js';
import { queryTokenAccepted } from './variants/query-token-accepted.js';
import { relativeNextLink } from './variants/relative-next-link.js';
import { repeatOnlyReferenceLists } from './variants/repeat-only-reference-lists.js';
import { shortLivedTokens } from './variants/short-lived-tokens.js';
import { singleErrorItem } from './variants/single-error-item.js';
import { smallPages } from './variants/small-pages.js';
import { twoChallenges } from './variants/two-challenges.js';
import { validation422 } from './variants/validation-422.js';
import { astralCharactersReplaced } from './faults/astral-characters-replaced.js';
import { attributeDeleteRemovesAll } from './faults/attribute-delete-removes-all.js';
import { attributeNamesLowercased } from './faults/attribute-names-lowercased.js';
import { attributesPostReplaces } from './faults/attributes-post-replaces.js';
import { largeCountsWrapped } from './faults/large-counts-wrapped.js';
import { longTextTruncated } from './faults/long-text-truncated.js';
import { statusFilterLoose } from './faults/status-filter-loose.js';
import { textNormalized } from './faults/text-normalized.js';
import { textTrimmed } from './faults/text-trimmed.js';
import { dateTiesUnstable } from './faults/date-ties-unstable.js';
import { usersPutAppends } from './faults/users-put-appends.js';
import { candidateDetailsShared } from './faults/candidate-details-shared.js';
import { concurrentCreatesShareIds } from './faults/concurrent-creates-share-ids.js';
import { credentialsCaseInsensitive } from './faults/credentials-case-insensitive.js';
import { emptyTextAsNull } from './faults/empty-text-as-null.js';
import { fractionalSecondsDropped } from './faults/fractional-seconds-dropped.js';
import { optionalTypeFailsBatch } from './faults/optional-type-fails-batch.js';
import { stepCacheStaleAfterMove } from './faults/step-cache-stale-after-move.js';
import { caseInsensitiveReferences } from './variants/case-insensitive-references.js';
import { shortTextLimit } from './variants/short-text-limit.js';

export type { Persona } from './types.js';

const FAULTS: readonly Persona[] = [
  allOrNothingBatch,
  anyTokenAccepted,
  attributeValueOptional,
  authRefusedWith400,
  basicCredentialsAccepted,
  batchErrorsWithoutData,
  batchIdsRepeated,
  batchStoresFirstOnly,
  countAsString,
  createdWithoutIds,
  dataAsObject,
  dateFiltersIgnored,
  deleteDoesNothing,
  duplicateAcrossPages,
  errorWithRecords,
  errorWithoutErrors,
  expiredTokenAccepted,
  filtersDroppedOnNextPage,
  gapBetweenPages,
  getReturnsLatest,
  html500OnMalformedJson,
  htmlErrorPages,
  invalidItemsStored,
  jobOfferListStale,
  jobboardOfferPatchNotPersisted,
  malformedErrorItems,
  missingMessage,
  missingNextLink,
  nextLinkLoop,
  nextLinkToNowhere,
  noWwwAuthenticate,
  oauthErrorOnTokenFailure,
  onlyFirstReference,
  partialWithoutErrors,
  patchClearsUnspecified,
  patchEmptyRejected,
  patchNotPersisted,
  patchWithoutBearerCheck,
  putAcceptsMissingRequired,
  putKeepsOmitted,
  putNotPersisted,
  referenceFilterIgnored,
  referencePrefixMatch,
  refusedPutHalfApplied,
  serverErrorOnBadQuery,
  statusFilterIgnored,
  textNumbersAccepted,
  textPlainContentType,
  titlesUppercased,
  tokenCacheable,
  tokenIgnored,
  tokenTypeNotBearer,
  tokenWithoutExpiry,
  unknownId200,
  usersFlatData,
  validItemDropped,
  wrongSecretAccepted,
  applicationStepWithoutId,
  attributeUpdateEchoesName,
  grantTypeRequired,
  jobOfferIdsInResponses,
  optionalFieldRefused,
  plainText429,
  astralCharactersReplaced,
  attributeDeleteRemovesAll,
  attributeNamesLowercased,
  attributesPostReplaces,
  largeCountsWrapped,
  longTextTruncated,
  statusFilterLoose,
  textNormalized,
  textTrimmed,
  dateTiesUnstable,
  usersPutAppends,
  fractionalSecondsDropped,
  emptyTextAsNull,
  optionalTypeFailsBatch,
  candidateDetailsShared,
  stepCacheStaleAfterMove,
  concurrentCreatesShareIds,
  credentialsCaseInsensitive,
];

const VARIANTS: readonly Persona[] = [
  allInvalidAsPartial,
  attributesReversed,
  authRefused403,
  batchLimit500,
  bracketsReferenceLists,
  createdWith200,
  dateTimeBoundsOnly,
  datesWithOffset,
  emptyBatchRefused,
  emptyPageEnd,
  emptyStringEnd,
  errorItemDetails,
  exclusiveDateBounds,
  expiresInMilliseconds,
  extraFields,
  jsonCharset,
  jsonOnlyToken,
  lenientRequests,
  lowercaseTokenType,
  messageOnlyBatch,
  messageOnlyWithIdLogs,
  newestFirst,
  nullOptionalFields,
  numericIdsWithIdLog,
  numericJobOfferIds,
  patchWithoutId,
  pathPrefix,
  queryTokenAccepted,
  relativeNextLink,
  shortLivedTokens,
  singleErrorItem,
  smallPages,
  twoChallenges,
  validation422,
  partialSuccess400,
  partialSuccess422,
  partialSuccess201,
  batchAlways207,
  commaReferenceLists,
  jsonArrayReferenceLists,
  repeatOnlyReferenceLists,
  rateLimited,
  rateLimitedHttpDate,
  shortTextLimit,
  caseInsensitiveReferences,
];

const PERSONAS: readonly Persona[] = [...VARIANTS, ...FAULTS];

export function allPersonas(kind?: Persona['kind']): Persona[] {
  return PERSONAS.filter((p) => kind === undefined || p.kind === kind);
}

export function personaByName(name: string): Persona | undefined {
  return PERSONAS.find((p) => p.name === name);
}

