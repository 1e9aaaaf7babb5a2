import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { Email } from '../../timeline/emails/emails.schemas.js';
import { isoSeconds } from '../../platform/time.js';
import { getVisibleMailbox, presentMailbox, visibleMailboxes } from './mailboxes.repo.js';
import {
  Mailbox,
  MailboxCreateBody,
  MailboxListQuery,
  MailboxSendBody,
} from './mailboxes.schemas.js';
import { connectWithPasswords } from './mailboxes.service.js';
import { sendFromMailbox } from './send.js';

const tags = ['mailboxes'];

/**
 * Connected mailboxes: a user connects their own (IMAP + SMTP, tested on connect), sees its
 * status and sends from it; an Owner sees which mailboxes the account has, never a password.
 */
export const mailboxesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.post(
    '/v1/mailboxes',
    {
      schema: {
        tags,
        summary: 'Connect your mailbox (tested now; its mail is then synced by a worker)',
        body: MailboxCreateBody,
        response: responses({ 201: Mailbox }),
      },
    },
    async (request, reply) => {
      const row = await connectWithPasswords(ctx, request.auth, request.body);
      return reply.code(201).send(presentMailbox(row));
    },
  );

  app.get(
    '/v1/mailboxes',
    {
      schema: {
        tags,
        summary: 'Your mailboxes (an Owner: every mailbox connected in the account)',
        querystring: MailboxListQuery,
        response: responses({ 200: Type.Object({ mailboxes: Type.Array(Mailbox) }) }),
      },
    },
    async (request) => {
      let query = visibleMailboxes(db, request.auth).orderBy('id');
      if (request.query.userId) query = query.where('user_id', '=', request.query.userId);
      return { mailboxes: (await query.limit(1000).execute()).map(presentMailbox) };
    },
  );

  app.get(
    '/v1/mailboxes/:id',
    {
      schema: {
        tags,
        summary: 'A mailbox and its sync status',
        params: IdParams,
        response: responses({ 200: Mailbox }),
      },
    },
    async (request) => presentMailbox(await getVisibleMailbox(db, request.auth, request.params.id)),
  );

  app.delete(
    '/v1/mailboxes/:id',
    {
      schema: {
        tags,
        summary: 'Disconnect a mailbox: the sync stops, what it filed stays on the timelines',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const row = await getVisibleMailbox(db, request.auth, request.params.id);
      // The worker holding it sees the row gone at its next lease renewal and closes.
      await db.deleteFrom('mailboxes').where('id', '=', row.id).execute();
      request.log.info(
        { mailboxId: row.id, at: isoSeconds(ctx.clock.now()) },
        'mailbox disconnected',
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/mailboxes/:id/send',
    {
      schema: {
        tags,
        summary:
          "Send an email to a person from your mailbox (filed in its Sent folder and on the person's timeline)",
        params: IdParams,
        body: MailboxSendBody,
        response: responses({ 201: Email }),
      },
    },
    async (request, reply) => {
      const email = await sendFromMailbox(ctx, request.auth, request.params.id, request.body);
      return reply.code(201).send(email);
    },
  );
};
