import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { ApiError, forbidden } from '../../platform/http/errors.js';
import { responses } from '../../platform/http/schemas.js';
import { MAX_PASSWORD_LENGTH } from './passwords.js';
import { sessionAnswer, signIn } from './auth.service.js';
import { clearSessionCookie, setSessionCookie } from './cookies.js';
import {
  createSession,
  requireCsrfToken,
  deleteSession,
  findSession,
  SESSION_ABSOLUTE_MS,
  sessionIdFrom,
} from './sessions.js';

const tags = ['auth'];

export const SessionAnswer = Type.Object({
  user: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    role: Type.String(),
  }),
  account: Type.Object({ id: Type.Integer(), name: Type.String() }),
  csrfToken: Type.String(),
});

const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
  },
  { additionalProperties: false },
);

export const notSignedIn = () => new ApiError(401, 'NOT_SIGNED_IN', 'Not signed in');

/** A browser posting from another site (login CSRF) is refused; same-site and non-browser clients pass. */
export function refuseCrossSite(request: FastifyRequest): void {
  if (request.headers['sec-fetch-site'] === 'cross-site')
    throw forbidden('Sign-in requests must come from Hearth itself, not from another site');
}

export const authRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const noStore = { 'Cache-Control': 'no-store' };

  app.post(
    '/auth/login',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Sign in with email and password (browser session cookie)',
        security: [],
        body: LoginBody,
        response: responses({ 200: SessionAnswer }),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request);
      const { email, password } = request.body;
      const user = await signIn(ctx, { email, password, address: request.ip });
      // A new id at every sign-in: a session id planted before sign-in never becomes signed in.
      const previous = sessionIdFrom(request);
      if (previous) await deleteSession(db, previous);
      const sessionId = await createSession(db, user, ctx.clock.now());
      setSessionCookie(reply, sessionId, SESSION_ABSOLUTE_MS / 1000);
      return reply.headers(noStore).send(await sessionAnswer(db, user, sessionId));
    },
  );

  app.get(
    '/auth/session',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Who is signed in, with the CSRF token for writes',
        security: [],
        response: responses({ 200: SessionAnswer }),
      },
    },
    async (request, reply) => {
      const sessionId = sessionIdFrom(request);
      const user = sessionId && (await findSession(db, sessionId, ctx.clock.now()));
      if (!sessionId || !user) throw notSignedIn();
      return reply.headers(noStore).send(await sessionAnswer(db, user, sessionId));
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Sign out: ends the session (needs X-CSRF-Token)',
        security: [],
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const sessionId = sessionIdFrom(request);
      const user = sessionId && (await findSession(db, sessionId, ctx.clock.now()));
      if (!sessionId || !user) throw notSignedIn();
      requireCsrfToken(request, sessionId);
      await deleteSession(db, sessionId);
      clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  );
};
