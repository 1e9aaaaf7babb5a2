import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Selectable } from 'kysely';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { AuthUser } from '../http/auth.js';
import type { DbOrTrx, Trx } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import { Bool, IdParams, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../http/pagination.js';
import { normalizePhone } from '../people/people.repo.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { allOptional, missing, onlyVisiblePeople, requirePerson, timelineListQuery, timelineSort } from '../timeline/timeline.shared.js';
import type { PeopleRelationshipsTable } from './relationships.tables.js';

type RelationshipRow = Selectable<PeopleRelationshipsTable>;
const tags = ['peopleRelationships'];

const ContactIn = Type.Union([
  Type.String({ minLength: 1, maxLength: 320 }),
  Type.Object({ value: Type.String({ minLength: 1, maxLength: 320 }), type: Type.Optional(Type.String({ maxLength: 50 })), isPrimary: Type.Optional(Bool()) }, { additionalProperties: false }),
]);
const AddressIn = Type.Object({
  street: Type.Optional(Type.String({ maxLength: 500 })), city: Type.Optional(Type.String({ maxLength: 200 })),
  state: Type.Optional(Type.String({ maxLength: 100 })), code: Type.Optional(Type.String({ maxLength: 30 })),
  country: Type.Optional(Type.String({ maxLength: 100 })), type: Type.Optional(Type.String({ maxLength: 50 })),
}, { additionalProperties: false });
const ContactOut = Type.Object({ value: Type.String(), type: Type.String(), isPrimary: Type.Boolean(), normalized: Type.Optional(Type.String()) });

const Relationship = Type.Object({
  id: Type.Integer(), created: Type.String(), updated: Type.String(), personId: Type.Integer(), name: Type.String(),
  firstName: Type.String(), lastName: Type.String(), type: Type.String(), emails: Type.Array(ContactOut), phones: Type.Array(ContactOut),
  addresses: Type.Array(Type.Record(Type.String(), Type.String())),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  name: Type.String({ maxLength: 300 }),
  firstName: Type.String({ maxLength: 150 }),
  lastName: Type.String({ maxLength: 150 }),
  type: Type.String({ maxLength: 100, description: 'Spouse, Partner, Parent, Child, Friend, …' }),
  emails: Type.Array(ContactIn, { maxItems: 20 }),
  phones: Type.Array(ContactIn, { maxItems: 20 }),
  addresses: Type.Array(AddressIn, { maxItems: 10 }),
};
const CreateBody = Type.Object({ ...allOptional(fields), personId: fields.personId, ...SystemField }, { additionalProperties: false });
const UpdateBody = Type.Object({ ...allOptional(fields), ...SystemField }, { additionalProperties: false });
const ListQuery = Type.Object(timelineListQuery, { additionalProperties: false });

type ContactInput = string | { value: string; type?: string; isPrimary?: boolean | number | string };
function contacts(items: ContactInput[] | undefined, phone: boolean) {
  return items?.map((item, i) => {
    const c = typeof item === 'string' ? { value: item } : item;
    const value = c.value.trim();
    const out = { value, type: c.type ?? '', isPrimary: c.isPrimary === undefined ? i === 0 : toBool(c.isPrimary) === true };
    return phone ? { ...out, normalized: normalizePhone(value) } : out;
  });
}
function names(b: { name?: string; firstName?: string; lastName?: string }, row?: RelationshipRow) {
  let first = b.firstName ?? row?.first_name ?? '';
  let last = b.lastName ?? row?.last_name ?? '';
  if (b.name !== undefined && b.firstName === undefined && b.lastName === undefined) {
    const parts = b.name.trim().split(/\s+/);
    first = parts[0] ?? '';
    last = parts.slice(1).join(' ');
  }
  const name = b.name ?? [first, last].filter(Boolean).join(' ');
  return { name: name.trim(), first_name: first, last_name: last };
}

export function presentRelationship(row: RelationshipRow) {
  return {
    id: row.id, created: row.created_at, updated: row.updated_at, personId: row.person_id, name: row.name, firstName: row.first_name,
    lastName: row.last_name, type: row.type, emails: JSON.parse(row.emails), phones: JSON.parse(row.phones), addresses: JSON.parse(row.addresses),
  };
}

function visibleRelationships(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(
    db.selectFrom('people_relationships').selectAll('people_relationships').where('people_relationships.account_id', '=', auth.accountId),
    db, auth, 'people_relationships.person_id',
  );
}

/** A relationship is part of its person: the person's `updated` moves and peopleUpdated fires with it. */
async function personChanged(trx: Trx, accountId: number, personIds: number[], now: number) {
  await trx.updateTable('people').set({ updated_at: isoSeconds(now) }).where('account_id', '=', accountId).where('id', 'in', personIds).execute();
  await emit(trx, accountId, 'peopleUpdated', personIds, undefined, now);
}

export const relationshipsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;
  const find = (dbx: DbOrTrx, auth: AuthUser, id: number) => visibleRelationships(dbx, auth).where('people_relationships.id', '=', id).executeTakeFirst();

  app.get('/v1/peopleRelationships', {
    schema: { tags, summary: "People's relationships (spouse etc.)", querystring: ListQuery, response: responses({ 200: ListEnvelope('peoplerelationships', Relationship) }) },
  }, async (request) => {
    let query = visibleRelationships(db, request.auth);
    if (request.query.personId !== undefined) query = query.where('people_relationships.person_id', '=', request.query.personId);
    const page = await paginate<RelationshipRow>(request, {
      collection: 'peoplerelationships', query, page: readPage(request.query), sort: timelineSort(request.query.sort, 'people_relationships'),
      idExpression: 'people_relationships.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, peoplerelationships: page.rows.map(presentRelationship) };
  });

  app.get('/v1/peopleRelationships/:id', {
    schema: { tags, summary: 'A relationship', params: IdParams, response: responses({ 200: Relationship }) },
  }, async (request) => presentRelationship((await find(db, request.auth, request.params.id)) ?? missing('Relationship', request.params.id)));

  app.post('/v1/peopleRelationships', {
    schema: { tags, summary: 'Add a relationship to a person', body: CreateBody, response: responses({ 201: Relationship }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const b = request.body;
    const n = names(b);
    if (!n.name) throw badRequest("Give the relation's 'name' or 'firstName'/'lastName'");
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    const id = await db.transaction().execute(async (trx) => {
      const personId = await requirePerson(trx, auth, b.personId);
      const row = await trx.insertInto('people_relationships').values({
        account_id: auth.accountId, person_id: personId, ...n, type: b.type ?? '', emails: JSON.stringify(contacts(b.emails, false) ?? []),
        phones: JSON.stringify(contacts(b.phones, true) ?? []), addresses: JSON.stringify(b.addresses ?? []), created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      await emit(trx, auth.accountId, 'peopleRelationshipCreated', [row.id], undefined, now);
      await personChanged(trx, auth.accountId, [personId], now);
      return row.id;
    });
    return reply.code(201).send(presentRelationship((await find(db, auth, id))!));
  });

  app.put('/v1/peopleRelationships/:id', {
    schema: { tags, summary: 'Change a relationship; emails/phones/addresses are replaced whole', params: IdParams, body: UpdateBody, response: responses({ 200: Relationship }) },
  }, async (request) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Relationship', request.params.id);
      const personId = b.personId ?? row.person_id;
      if (personId !== row.person_id) await requirePerson(trx, auth, personId);
      const n = names(b, row);
      if (!n.name) throw badRequest('A relationship needs a name');
      const emails = contacts(b.emails, false);
      const phones = contacts(b.phones, true);
      await trx.updateTable('people_relationships').set({
        person_id: personId, ...n, type: b.type ?? row.type, emails: emails ? JSON.stringify(emails) : row.emails,
        phones: phones ? JSON.stringify(phones) : row.phones, addresses: b.addresses ? JSON.stringify(b.addresses) : row.addresses,
        updated_at: isoSeconds(now),
      }).where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'peopleRelationshipUpdated', [row.id], undefined, now);
      await personChanged(trx, auth.accountId, [...new Set([row.person_id, personId])], now);
    });
    return presentRelationship((await find(db, auth, request.params.id))!);
  });

  app.delete('/v1/peopleRelationships/:id', {
    schema: { tags, summary: 'Delete a relationship', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Relationship', request.params.id);
      await trx.deleteFrom('people_relationships').where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'peopleRelationshipDeleted', [row.id], undefined, now);
      await personChanged(trx, auth.accountId, [row.person_id], now);
    });
    return reply.code(204).send(null);
  });
};
