import { type Static, Type } from '@sinclair/typebox';
import { type Selectable, sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { CustomFieldsTable, DbOrTrx, Trx } from '../db/database.js';
import { requireRole } from '../http/auth.js';
import { badRequest, notFound } from '../http/errors.js';
import { Bool, IdParams, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage, readSort } from '../http/pagination.js';
import { emit } from '../webhooks/outbox.js';
import type { EventName } from '../webhooks/event-names.js';
import { isoSeconds } from '../time.js';
import type { CustomFieldEntity } from './customFields.values.js';

const FIELD_TYPES = ['text', 'date', 'number', 'dropdown'] as const;

const CustomField = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'The key used on records, e.g. customClosingDate' }),
  label: Type.String(),
  type: Type.String(),
  choices: Type.Array(Type.String()),
  orderWeight: Type.Integer(),
  hideIfEmpty: Type.Boolean(),
  created: Type.String(),
  updated: Type.String(),
});

const Choices = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 });

const CreateBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
    choices: Type.Optional(Choices),
    orderWeight: Type.Optional(Type.Integer()),
    hideIfEmpty: Type.Optional(Bool()),
    ...SystemField,
  },
  { additionalProperties: false },
);

const UpdateBody = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    type: Type.Optional(Type.String()),
    choices: Type.Optional(Choices),
    orderWeight: Type.Optional(Type.Integer()),
    hideIfEmpty: Type.Optional(Bool()),
    ...SystemField,
  },
  { additionalProperties: false },
);

type Row = Selectable<CustomFieldsTable>;

export function presentCustomField(row: Row) {
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    type: row.type,
    choices: JSON.parse(row.choices) as string[],
    orderWeight: row.order_weight,
    hideIfEmpty: row.hide_if_empty === 1,
    created: row.created_at,
    updated: row.updated_at,
  };
}

/** customClosingDate from "Closing date". */
function keyFromLabel(label: string): string {
  const words = label.normalize('NFKD').replace(/[^A-Za-z0-9 ]+/g, ' ').trim().split(/\s+/).filter(Boolean);
  const camel = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return `custom${camel || 'Field'}`;
}

async function uniqueKey(trx: Trx, accountId: number, entity: string, label: string): Promise<string> {
  const base = keyFromLabel(label);
  const taken = new Set(
    (
      await trx
        .selectFrom('custom_fields')
        .select('name')
        .where('account_id', '=', accountId)
        .where('entity', '=', entity)
        .where('name', 'like', `${base}%`)
        .execute()
    ).map((r) => r.name),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

function checkChoices(type: string, choices: string[] | undefined): void {
  if (type === 'dropdown' && (!choices || choices.length === 0)) throw badRequest("A dropdown field needs 'choices'");
  if (type !== 'dropdown' && choices && choices.length > 0) throw badRequest("Only dropdown fields take 'choices'");
}

export interface CustomFieldRoutesSpec {
  path: string;
  entity: CustomFieldEntity;
  collection: string;
  /** the table whose `custom` JSON column holds the values, cleaned when a definition is deleted */
  valuesTable: string;
  events: { created: EventName; updated: EventName; deleted: EventName };
  tag: string;
}

/** Definitions of custom fields, for people (`/v1/customFields`) and deals (`/v1/dealCustomFields`). */
export function customFieldRoutes(spec: CustomFieldRoutesSpec): FastifyPluginAsync<RouteOptions> {
  return async (instance, { ctx }) => {
    const app = instance as unknown as Api;
    const { db, config } = ctx;
    const tags = [spec.tag];
    // Takes the executor: inside a transaction the lookup must use it (SQLite has one connection,
    // so reading through `db` there would wait for the transaction forever).
    const byId = (executor: DbOrTrx, accountId: number, id: number) =>
      executor.selectFrom('custom_fields').selectAll().where('account_id', '=', accountId).where('entity', '=', spec.entity).where('id', '=', id);

    app.get(spec.path, {
      schema: {
        tags,
        summary: `List ${spec.entity} custom fields`,
        querystring: Type.Object({ ...PageQuery, sort: Type.Optional(Type.String()), system: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: responses({ 200: ListEnvelope(spec.collection, CustomField) }),
      },
    }, async (request) => {
      const sort = readSort(request.query.sort, { orderWeight: 'order_weight', label: 'label', name: 'name' }, 'id');
      const query = db.selectFrom('custom_fields').selectAll().where('account_id', '=', request.auth.accountId).where('entity', '=', spec.entity);
      const page = await paginate<Row>(request, {
        collection: spec.collection, query, page: readPage(request.query), sort, idExpression: 'id', publicUrl: config.publicUrl,
      });
      return { _metadata: page.metadata, [spec.collection]: page.rows.map(presentCustomField) };
    });

    app.get(`${spec.path}/:id`, {
      schema: { tags, summary: `Get a ${spec.entity} custom field`, params: IdParams, response: responses({ 200: CustomField }) },
    }, async (request) => {
      const row = await byId(db, request.auth.accountId, request.params.id).executeTakeFirst();
      if (!row) throw notFound('Custom field');
      return presentCustomField(row);
    });

    app.post(spec.path, {
      schema: { tags, summary: `Define a ${spec.entity} custom field (Owner, Admin)`, body: CreateBody, response: responses({ 201: CustomField }) },
    }, async (request, reply) => {
      requireRole(request, 'Owner', 'Admin');
      const body = request.body;
      checkChoices(body.type, body.choices);
      const accountId = request.auth.accountId;
      const row = await db.transaction().execute(async (trx) => {
        const stamp = isoSeconds(ctx.clock.now());
        const created = await trx
          .insertInto('custom_fields')
          .values({
            account_id: accountId,
            entity: spec.entity,
            name: await uniqueKey(trx, accountId, spec.entity, body.label),
            label: body.label.trim(),
            type: body.type,
            choices: JSON.stringify(body.choices ?? []),
            order_weight: body.orderWeight ?? 0,
            hide_if_empty: toBool(body.hideIfEmpty) ? 1 : 0,
            created_at: stamp,
            updated_at: stamp,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await emit(trx, accountId, spec.events.created, [created.id]);
        return created;
      });
      return reply.code(201).send(presentCustomField(row));
    });

    app.put(`${spec.path}/:id`, {
      schema: { tags, summary: `Update a ${spec.entity} custom field (Owner, Admin)`, params: IdParams, body: UpdateBody, response: responses({ 200: CustomField }) },
    }, async (request) => {
      requireRole(request, 'Owner', 'Admin');
      const accountId = request.auth.accountId;
      const body: Static<typeof UpdateBody> = request.body;
      return db.transaction().execute(async (trx) => {
        const row = await byId(trx, accountId, request.params.id).executeTakeFirst();
        if (!row) throw notFound('Custom field');
        if (body.type !== undefined && body.type !== row.type) throw badRequest(`The type of a custom field cannot change (it is ${row.type})`);
        // Only choices sent are checked: a label-only update of a dropdown keeps its choices.
        if (body.choices !== undefined) checkChoices(row.type, body.choices);
        const changes = {
          label: body.label?.trim() ?? row.label,
          choices: body.choices ? JSON.stringify(body.choices) : row.choices,
          order_weight: body.orderWeight ?? row.order_weight,
          hide_if_empty: body.hideIfEmpty === undefined ? row.hide_if_empty : toBool(body.hideIfEmpty) ? 1 : 0,
        };
        const changed = (Object.keys(changes) as (keyof typeof changes)[]).some((k) => changes[k] !== row[k]);
        if (!changed) return presentCustomField(row);
        const updated = await trx
          .updateTable('custom_fields')
          .set({ ...changes, updated_at: isoSeconds(ctx.clock.now()) })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await emit(trx, accountId, spec.events.updated, [row.id]);
        return presentCustomField(updated);
      });
    });

    app.delete(`${spec.path}/:id`, {
      schema: { tags, summary: `Delete a ${spec.entity} custom field and its values (Owner, Admin)`, params: IdParams, response: responses({ 204: Type.Null() }) },
    }, async (request, reply) => {
      requireRole(request, 'Owner', 'Admin');
      const accountId = request.auth.accountId;
      await db.transaction().execute(async (trx) => {
        const row = await byId(trx, accountId, request.params.id).executeTakeFirst();
        if (!row) throw notFound('Custom field');
        await trx.deleteFrom('custom_fields').where('id', '=', row.id).execute();
        // Drop the stored values too, so a later field of the same name starts empty.
        const removed = ctx.dialect === 'sqlite'
          ? sql`json_remove(custom, ${'$.' + row.name})`
          : sql`(custom::jsonb - ${row.name})::text`;
        await sql`update ${sql.table(spec.valuesTable)} set custom = ${removed} where account_id = ${accountId} and custom like ${'%"' + row.name + '"%'}`.execute(trx);
        await emit(trx, accountId, spec.events.deleted, [row.id]);
      });
      return reply.code(204).send(null);
    });
  };
}

export const personCustomFieldRoutes = customFieldRoutes({
  path: '/v1/customFields',
  entity: 'person',
  collection: 'customfields',
  valuesTable: 'people',
  events: { created: 'customFieldsCreated', updated: 'customFieldsUpdated', deleted: 'customFieldsDeleted' },
  tag: 'customFields',
});
