// Endpoint 1: POST /oauth2/token.
import { schemaErrors } from '../../src/spec/index.js';
import { credentialsMatch } from '../auth.js';
import type { JsonObject, RequestContext, SimResponse } from '../context.js';
import { SimError, reply } from '../envelope.js';
import { rules } from '../rules.js';

export function requestToken(ctx: RequestContext): SimResponse {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SimError('validation', 'invalid_request: the token request body must be an object with client_id and client_secret.');
  }
  const fields = body as JsonObject;
  // A grant_type outside the schema's enum gets OAuth's own error below, not invalid_request.
  const problems = schemaErrors(ctx.operation?.requestSchema ?? '', fields).map((p) => p.replace(/^\(body\): /, '').replace(/^\//, ''))
    .filter((p) => !(typeof fields['grant_type'] === 'string' && p.startsWith('grant_type: must be equal to one of the allowed values')));
  const missing = problems.filter((p) => p.endsWith(' is required'));
  if (problems.length > missing.length) throw new SimError('validation', 'invalid_request: the token request is malformed.', problems);
  if (missing.length > 0) throw new SimError('unauthorized', 'invalid_client: client_id and client_secret are required.', missing);
  const grant = fields['grant_type'];
  const { grantType } = rules();
  if (grant !== undefined && grant !== grantType) {
    throw new SimError('validation', `unsupported_grant_type: grant_type must be ${grantType} or left out.`);
  }
  const { clientId, clientSecret, tokenTtl } = ctx.options;
  if (!credentialsMatch({ clientId, clientSecret }, String(fields['client_id']), String(fields['client_secret']))) {
    throw new SimError('unauthorized', 'invalid_client: the client credentials are not valid.');
  }
  ctx.clientId = clientId;
  return reply('token', {
    access_token: ctx.tokens.issue(clientId, tokenTtl),
    token_type: 'Bearer',
    expires_in: tokenTtl,
  }, { 'cache-control': 'no-store', pragma: 'no-cache' });
}
