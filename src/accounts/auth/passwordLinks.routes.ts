import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { responses } from '../../platform/http/schemas.js';
import { MAX_PASSWORD_LENGTH } from './passwords.js';
import { sessionAnswer } from './auth.service.js';
import { setSessionCookie } from './cookies.js';
import { createSession, deleteSession, SESSION_ABSOLUTE_MS, sessionIdFrom } from './sessions.js';
import { refuseCrossSite, SessionAnswer } from './auth.routes.js';
import { redeemPasswordLink } from './passwordLinks.service.js';
import { sendResetLinks } from './forgot.js';
import { canEmail } from './mailer.js';

const tags = ['auth'];

const PasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }),
  },
  { additionalProperties: false },
);

export const passwordLinkRoutes: RoutePlugin = async (app, { ctx }) => {
  app.post(
    '/auth/password',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Choose a password with a setup, invite or reset link; signs the user in',
        security: [],
        body: PasswordBody,
        response: responses({ 200: SessionAnswer }),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request);
      const user = await redeemPasswordLink(ctx, request.body.token, request.body.password);
      const previous = sessionIdFrom(request);
      if (previous) await deleteSession(ctx.db, previous);
      const sessionId = await createSession(ctx.db, user, ctx.clock.now());
      setSessionCookie(reply, sessionId, SESSION_ABSOLUTE_MS / 1000);
      return reply
        .header('Cache-Control', 'no-store')
        .send(await sessionAnswer(ctx.db, user, sessionId));
    },
  );

  app.post(
    '/auth/forgot',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary:
          'Email a password reset link (always 202, whether or not the email is known); emailsLinks false: no SMTP, ask an Owner',
        security: [],
        body: Type.Object(
          { email: Type.String({ minLength: 3, maxLength: 320 }) },
          { additionalProperties: false },
        ),
        response: responses({ 202: Type.Object({ emailsLinks: Type.Boolean() }) }),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request);
      void sendResetLinks(ctx, request.body.email).catch((err: Error) =>
        ctx.log.warn({ error: err.message }, 'password reset email failed'),
      );
      return reply.code(202).send({ emailsLinks: canEmail(ctx) });
    },
  );
};
