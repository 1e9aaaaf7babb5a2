import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { AuthUser } from '../http/auth.js';
import type { DbOrTrx } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import { Bool, IdParams, Nullable, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../http/pagination.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { allOptional, missing, onlyVisiblePeople, requirePerson, timelineListQuery, timelineSort } from '../timeline/timeline.shared.js';
import { type EmailRow, insertEmail } from './emails.repo.js';

const tags = ['emails'];
const Address = Type.String({ maxLength: 320 });
const Addresses = Type.Union([Address, Type.Array(Address, { maxItems: 100 })], { description: 'an address or a list of addresses' });

const Email = Type.Object({
  id: Type.Integer(), created: Type.String(), updated: Type.String(), personId: Type.Integer(), subject: Type.String(), body: Type.String(),
  isHtml: Type.Boolean(), from: Type.String(), to: Type.Array(Type.String()), cc: Type.Array(Type.String()), isIncoming: Type.Boolean(),
  sentAt: Nullable(Type.String()), userId: Nullable(Type.Integer()), system: Type.String(),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  subject: Type.String({ maxLength: 1000 }),
  body: Type.String({ maxLength: 500_000 }),
  isHtml: Bool(),
  from: Address,
  to: Addresses,
  cc: Addresses,
  isIncoming: Bool(),
  sentAt: Type.String({ maxLength: 40, description: 'ISO 8601; defaults to when it was logged' }),
};
const CreateBody = Type.Object({ ...allOptional(fields), personId: fields.personId, ...SystemField }, { additionalProperties: false });
const UpdateBody = Type.Object({ ...allOptional(fields), ...SystemField }, { additionalProperties: false });
const ListQuery = Type.Object(timelineListQuery, { additionalProperties: false });

const list = (value: string | string[] | undefined) => (value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map((a) => a.trim()).filter(Boolean));
function sentAt(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badRequest("'sentAt' must be an ISO 8601 timestamp");
  return isoSeconds(ms);
}

export function presentEmail(row: EmailRow) {
  return {
    id: row.id, created: row.created_at, updated: row.updated_at, personId: row.person_id, subject: row.subject, body: row.body,
    isHtml: row.is_html === 1, from: row.from_address, to: JSON.parse(row.to_addresses) as string[], cc: JSON.parse(row.cc_addresses) as string[],
    isIncoming: row.is_incoming === 1, sentAt: row.sent_at, userId: row.user_id, system: row.system,
  };
}

function visibleEmails(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(db.selectFrom('emails').selectAll('emails').where('emails.account_id', '=', auth.accountId), db, auth, 'emails.person_id');
}

/** Logged emails on a person's timeline: Hearth records them, it sends nothing. */
export const emailsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;
  const find = (dbx: DbOrTrx, auth: AuthUser, id: number) => visibleEmails(dbx, auth).where('emails.id', '=', id).executeTakeFirst();

  app.get('/v1/emails', {
    schema: { tags, summary: 'Logged emails', querystring: ListQuery, response: responses({ 200: ListEnvelope('emails', Email) }) },
  }, async (request) => {
    let query = visibleEmails(db, request.auth);
    if (request.query.personId !== undefined) query = query.where('emails.person_id', '=', request.query.personId);
    if (request.query.system) query = query.where('emails.system', '=', request.query.system);
    const page = await paginate<EmailRow>(request, {
      collection: 'emails', query, page: readPage(request.query), sort: timelineSort(request.query.sort, 'emails', { sentAt: "coalesce(emails.sent_at, '')" }),
      idExpression: 'emails.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, emails: page.rows.map(presentEmail) };
  });

  app.get('/v1/emails/:id', {
    schema: { tags, summary: 'A logged email', params: IdParams, response: responses({ 200: Email }) },
  }, async (request) => presentEmail((await find(db, request.auth, request.params.id)) ?? missing('Email', request.params.id)));

  app.post('/v1/emails', {
    schema: { tags, summary: 'Log an email on a person (sends nothing)', body: CreateBody, response: responses({ 201: Email }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const b = request.body;
    const id = await db.transaction().execute(async (trx) => insertEmail(trx, auth.accountId, {
      personId: await requirePerson(trx, auth, b.personId), subject: b.subject, body: b.body, isHtml: toBool(b.isHtml), from: b.from,
      to: list(b.to), cc: list(b.cc), isIncoming: toBool(b.isIncoming), sentAt: sentAt(b.sentAt), userId: auth.userId,
      system: request.system?.name ?? '', now: ctx.clock.now(),
    }));
    return reply.code(201).send(presentEmail((await find(db, auth, id))!));
  });

  app.put('/v1/emails/:id', {
    schema: { tags, summary: 'Change a logged email', params: IdParams, body: UpdateBody, response: responses({ 200: Email }) },
  }, async (request) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Email', request.params.id);
      if (b.personId !== undefined && b.personId !== row.person_id) await requirePerson(trx, auth, b.personId);
      const to = list(b.to);
      const cc = list(b.cc);
      await trx.updateTable('emails').set({
        person_id: b.personId ?? row.person_id, subject: b.subject ?? row.subject, body: b.body ?? row.body,
        is_html: b.isHtml === undefined ? row.is_html : toBool(b.isHtml) ? 1 : 0, from_address: b.from ?? row.from_address,
        to_addresses: to ? JSON.stringify(to) : row.to_addresses, cc_addresses: cc ? JSON.stringify(cc) : row.cc_addresses,
        is_incoming: b.isIncoming === undefined ? row.is_incoming : toBool(b.isIncoming) ? 1 : 0,
        sent_at: sentAt(b.sentAt) ?? row.sent_at, updated_at: isoSeconds(now),
      }).where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'emailsUpdated', [row.id], undefined, now);
    });
    return presentEmail((await find(db, auth, request.params.id))!);
  });

  app.delete('/v1/emails/:id', {
    schema: { tags, summary: 'Delete a logged email', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Email', request.params.id);
      await trx.deleteFrom('emails').where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'emailsDeleted', [row.id], undefined, ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
