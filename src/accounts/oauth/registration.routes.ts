import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/http/errors.js';
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { RegistrationProblem, registerClient, registrationsSince } from './registrations.js';

const tags = ['oauth'];
/** Registrations waiting for a consent, per hour, and per address per hour (in this process). */
const MAX_PER_HOUR = 200;
const MAX_PER_ADDRESS_PER_HOUR = 20;
const HOUR = 3600_000;

const RegistrationRequest = Type.Object(
  {
    redirect_uris: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 10 }),
    client_name: Type.Optional(Type.String({ maxLength: 500 })),
    token_endpoint_auth_method: Type.Optional(Type.String({ maxLength: 100 })),
    grant_types: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 10 })),
    response_types: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 10 })),
  },
  { additionalProperties: true },
);
const RegistrationError = Type.Object({ error: Type.String(), error_description: Type.String() });
const Registered = Type.Object({
  client_id: Type.String(),
  client_id_issued_at: Type.Integer(),
  client_name: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  token_endpoint_auth_method: Type.Literal('none'),
  grant_types: Type.Array(Type.String()),
  response_types: Type.Array(Type.String()),
});

const GRANTS = new Set(['authorization_code', 'refresh_token']);

function refuse(reply: FastifyReply, status: number, error: string, description: string) {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .send({ error, error_description: description });
}

/** Errors raised before the handler (a body too deep or too large) answer in RFC 7591's shape too. */
function registrationErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const status = error instanceof ApiError ? error.status : error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return refuse(reply, status, 'invalid_client_metadata', error.message);
  request.log.error({ err: error, reqId: request.id }, 'registration endpoint error');
  return refuse(reply, 500, 'server_error', `Internal error; quote request id ${request.id}`);
}

/** Only what Hearth gives a self-registered client: a public client of the code flow with PKCE. */
function metadataProblem(body: {
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  response_types?: string[];
}): string | null {
  const method = body.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none')
    return 'token_endpoint_auth_method must be none: self-registered clients are public and use PKCE (S256)';
  if (body.grant_types?.some((grant) => !GRANTS.has(grant)))
    return 'grant_types may only list authorization_code and refresh_token';
  if (body.response_types?.some((type) => type !== 'code'))
    return 'response_types may only list code';
  return null;
}

/** POST /oauth/register: dynamic client registration (RFC 7591) of public clients. */
export const registrationRoutes: RoutePlugin = async (instance, { ctx }) => {
  const byAddress = new Map<string, number[]>();
  const overAddressLimit = (address: string, now: number) => {
    const recent = (byAddress.get(address) ?? []).filter((at) => at > now - HOUR);
    if (recent.length >= MAX_PER_ADDRESS_PER_HOUR) return true;
    recent.push(now);
    byAddress.set(address, recent);
    if (byAddress.size > 10_000) byAddress.delete(byAddress.keys().next().value as string);
    return false;
  };

  instance.post(
    '/oauth/register',
    {
      config: { auth: 'none' },
      errorHandler: registrationErrorHandler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Register a public OAuth client, such as an AI assistant (RFC 7591)',
        description:
          'The client is public (no secret) and uses the code flow with PKCE S256. It joins the ' +
          'account of the first user who allows it; registrations nobody allows within a day are dropped.',
        security: [],
        body: RegistrationRequest,
        response: { 201: Registered, 400: RegistrationError, 429: RegistrationError },
      },
    },
    async (request, reply) => {
      if (request.validationError)
        return refuse(reply, 400, 'invalid_client_metadata', request.validationError.message);
      const body = request.body as typeof RegistrationRequest.static;
      const problem = metadataProblem(body);
      if (problem) return refuse(reply, 400, 'invalid_client_metadata', problem);
      const now = ctx.clock.now();
      if (
        overAddressLimit(request.ip, now) ||
        (await registrationsSince(ctx.db, now - HOUR)) >= MAX_PER_HOUR
      )
        return refuse(
          reply.header('Retry-After', '3600'),
          429,
          'too_many_registrations',
          'Too many client registrations; try again in an hour',
        );
      try {
        const client = await registerClient(ctx.db, body, now);
        return reply
          .code(201)
          .header('Cache-Control', 'no-store')
          .send({
            client_id: client.clientId,
            client_id_issued_at: Math.floor(now / 1000),
            client_name: client.name,
            redirect_uris: client.redirectUris,
            token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
          });
      } catch (err) {
        if (err instanceof RegistrationProblem) return refuse(reply, 400, err.error, err.message);
        throw err;
      }
    },
  );
};
