import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { badRequest, conflict } from '../../platform/http/errors.js';
import { responses } from '../../platform/http/schemas.js';
import {
  MAX_PASSWORD_LENGTH,
  hashPassword,
  passwordProblem,
  verifyPassword,
} from '../auth/passwords.js';
import { endUserSessions, forgetUserSessions } from '../auth/sessions.js';
import { User } from './users.schemas.js';
import { getUser } from './users.repo.js';
import { presentUsers } from './users.presenter.js';

const MeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 320, format: 'email' })),
  },
  { additionalProperties: false },
);

const PasswordChangeBody = Type.Object(
  {
    currentPassword: Type.String({ maxLength: MAX_PASSWORD_LENGTH }),
    password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }),
  },
  { additionalProperties: false },
);

/** A user's own settings: name, email and password (the web app's /settings). */
export const meRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.put(
    '/v1/me',
    {
      schema: {
        tags: ['users'],
        summary: 'Change your own name or email',
        body: MeBody,
        response: responses({ 200: User }),
      },
    },
    async (request) => {
      const { accountId, userId } = request.auth;
      const name = request.body.name?.trim();
      const email = request.body.email?.trim().toLowerCase();
      if (name === '')
        throw badRequest("'name' must not be blank", [{ field: 'name', message: 'Give a name' }]);
      if (email) {
        const taken = await db
          .selectFrom('users')
          .select('id')
          .where('account_id', '=', accountId)
          .where('email', '=', email)
          .where('id', '<>', userId)
          .executeTakeFirst();
        if (taken) throw conflict(`${email} is already the email of another user of this account`);
      }
      if (name !== undefined || email !== undefined)
        await db
          .updateTable('users')
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(email !== undefined ? { email } : {}),
          })
          .where('account_id', '=', accountId)
          .where('id', '=', userId)
          .execute();
      return (await presentUsers(db, [await getUser(db, accountId, userId)]))[0];
    },
  );

  app.post(
    '/v1/me/password',
    {
      schema: {
        tags: ['users'],
        summary: 'Change your own password (ends every session of yours: sign in again)',
        body: PasswordChangeBody,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const { accountId, userId } = request.auth;
      const user = await db
        .selectFrom('users')
        .select(['email', 'password_hash'])
        .where('account_id', '=', accountId)
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const current = user.password_hash
        ? await verifyPassword(request.body.currentPassword, user.password_hash)
        : false;
      if (!current)
        throw badRequest('The current password is not right', [
          { field: 'currentPassword', message: 'Not your current password' },
        ]);
      const problem = passwordProblem(request.body.password, user.email);
      if (problem) throw badRequest(problem, [{ field: 'password', message: problem }]);
      const passwordHash = await hashPassword(request.body.password);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash })
          .where('account_id', '=', accountId)
          .where('id', '=', userId)
          .execute();
        await endUserSessions(trx, userId);
      });
      // Again once committed: a request that came meanwhile may have remembered a session.
      forgetUserSessions(userId);
      return reply.code(204).send(null);
    },
  );
};
