import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Selectable } from 'kysely';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { type AuthUser, seesEveryone } from '../http/auth.js';
import type { DbOrTrx } from '../db/database.js';
import { Bool, IdParams, Nullable, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../http/pagination.js';
import { normalizePhone } from '../people/people.repo.js';
import { touchLastActivity } from '../people/people.access.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { allOptional, missing, onlyVisiblePeople, requireAccountUser, requirePerson, timelineListQuery, timelineSort } from '../timeline/timeline.shared.js';
import type { CallsTable } from './calls.tables.js';

type CallRow = Selectable<CallsTable>;
const tags = ['calls'];

export const CALL_OUTCOMES = ['Interested', 'Not Interested', 'Left Message', 'No Answer', 'Busy', 'Bad Number'] as const;

const Call = Type.Object({
  id: Type.Integer(), created: Type.String(), updated: Type.String(),
  personId: Type.Integer({ description: '0: an unknown caller' }),
  phone: Type.String(), isIncoming: Type.Boolean(), outcome: Nullable(Type.String()), duration: Type.Integer(),
  note: Type.String(), toNumber: Type.String(), fromNumber: Type.String(), userId: Nullable(Type.Integer()),
  recordingUrl: Type.String(), system: Type.String(),
});

const fields = {
  personId: Type.Integer({ minimum: 0, description: '0 (or absent) for an unknown caller: visible to Owners and Admins only' }),
  phone: Type.String({ maxLength: 50 }),
  isIncoming: Bool(),
  outcome: Nullable(Type.Union(CALL_OUTCOMES.map((o) => Type.Literal(o)))),
  duration: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'seconds' }),
  note: Type.String({ maxLength: 20_000 }),
  toNumber: Type.String({ maxLength: 50 }),
  fromNumber: Type.String({ maxLength: 50 }),
  userId: Nullable(Type.Integer({ minimum: 1 })),
  recordingUrl: Type.String({ maxLength: 2000 }),
};
const CallBody = Type.Object({ ...allOptional(fields), ...SystemField }, { additionalProperties: false });
const CallListQuery = Type.Object({ ...timelineListQuery, phone: Type.Optional(Type.String({ maxLength: 50 })), userId: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false });

export function presentCall(row: CallRow) {
  return {
    id: row.id, created: row.created_at, updated: row.updated_at, personId: row.person_id ?? 0, phone: row.phone,
    isIncoming: row.is_incoming === 1, outcome: row.outcome, duration: row.duration, note: row.note, toNumber: row.to_number,
    fromNumber: row.from_number, userId: row.user_id, recordingUrl: row.recording_url, system: row.system,
  };
}

/** Calls the caller may see: Owner/Admin all of the account's, others only calls of people they may see. */
function callsQuery(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(db.selectFrom('calls').selectAll('calls').where('calls.account_id', '=', auth.accountId), db, auth, 'calls.person_id');
}

async function requireCallPerson(db: DbOrTrx, auth: AuthUser, personId: number | undefined): Promise<number | null> {
  if (!personId) {
    if (!seesEveryone(auth)) return requirePerson(db, auth, undefined).then(() => null);
    return null;
  }
  return requirePerson(db, auth, personId);
}

export const callsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;
  const find = (dbx: DbOrTrx, auth: AuthUser, id: number) => callsQuery(dbx, auth).where('calls.id', '=', id).executeTakeFirst();

  app.get('/v1/calls', {
    schema: { tags, summary: 'Logged calls (filters personId — 0 for unknown callers —, phone, system, userId)', querystring: CallListQuery, response: responses({ 200: ListEnvelope('calls', Call) }) },
  }, async (request) => {
    const q = request.query;
    let query = callsQuery(db, request.auth);
    if (q.personId !== undefined) query = q.personId === 0 ? query.where('calls.person_id', 'is', null) : query.where('calls.person_id', '=', q.personId);
    if (q.phone) query = query.where('calls.normalized_phone', '=', normalizePhone(q.phone));
    if (q.system) query = query.where('calls.system', '=', q.system);
    if (q.userId !== undefined) query = query.where('calls.user_id', '=', q.userId);
    const page = await paginate<CallRow>(request, {
      collection: 'calls', query, page: readPage(q), sort: timelineSort(q.sort, 'calls', { duration: 'calls.duration' }),
      idExpression: 'calls.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, calls: page.rows.map(presentCall) };
  });

  app.get('/v1/calls/:id', {
    schema: { tags, summary: 'A logged call', params: IdParams, response: responses({ 200: Call }) },
  }, async (request) => presentCall((await find(db, request.auth, request.params.id)) ?? missing('Call', request.params.id)));

  app.post('/v1/calls', {
    schema: { tags, summary: 'Log a call (records it; places no call)', body: CallBody, response: responses({ 201: Call }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    const id = await db.transaction().execute(async (trx) => {
      const personId = await requireCallPerson(trx, auth, b.personId);
      const userId = b.userId === undefined ? auth.userId : b.userId;
      if (userId !== null) await requireAccountUser(trx, auth.accountId, userId);
      const phone = b.phone ?? (toBool(b.isIncoming) ? b.fromNumber : b.toNumber) ?? '';
      const row = await trx.insertInto('calls').values({
        account_id: auth.accountId, person_id: personId, phone, normalized_phone: normalizePhone(phone),
        is_incoming: toBool(b.isIncoming) ? 1 : 0, outcome: b.outcome ?? null, duration: b.duration ?? 0, note: b.note ?? '',
        to_number: b.toNumber ?? '', from_number: b.fromNumber ?? '', user_id: userId, recording_url: b.recordingUrl ?? '',
        system: request.system?.name ?? '', created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      if (personId !== null) await touchLastActivity(trx, auth.accountId, personId, at);
      await emit(trx, auth.accountId, 'callsCreated', [row.id], undefined, now);
      return row.id;
    });
    return reply.code(201).send(presentCall((await find(db, auth, id))!));
  });

  app.put('/v1/calls/:id', {
    schema: { tags, summary: 'Change a logged call: only the fields sent change', params: IdParams, body: CallBody, response: responses({ 200: Call }) },
  }, async (request) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Call', request.params.id);
      const personId = b.personId === undefined ? row.person_id : await requireCallPerson(trx, auth, b.personId);
      if (b.userId) await requireAccountUser(trx, auth.accountId, b.userId);
      const phone = b.phone ?? row.phone;
      await trx.updateTable('calls').set({
        person_id: personId, phone, normalized_phone: normalizePhone(phone),
        is_incoming: b.isIncoming === undefined ? row.is_incoming : toBool(b.isIncoming) ? 1 : 0,
        outcome: b.outcome === undefined ? row.outcome : b.outcome, duration: b.duration ?? row.duration, note: b.note ?? row.note,
        to_number: b.toNumber ?? row.to_number, from_number: b.fromNumber ?? row.from_number,
        user_id: b.userId === undefined ? row.user_id : b.userId, recording_url: b.recordingUrl ?? row.recording_url,
        updated_at: isoSeconds(now),
      }).where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'callsUpdated', [row.id], undefined, now);
    });
    return presentCall((await find(db, auth, request.params.id))!);
  });

  app.delete('/v1/calls/:id', {
    schema: { tags, summary: 'Delete a logged call', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Call', request.params.id);
      await trx.deleteFrom('calls').where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'callsDeleted', [row.id], undefined, ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
