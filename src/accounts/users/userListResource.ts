import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import {
  ListEnvelope,
  PageQuery,
  paginate,
  readPage,
  readSort,
} from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';

const ListQuery = Type.Object(
  { ...PageQuery, sort: Type.Optional(Type.String()), system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/**
 * What a named group of users (a pond, a team) configures: its path and schemas, how its rows are
 * read and presented (with their user lists), and the service commands that write it.
 */
export interface UserListResource<
  Row extends { id: number },
  Create extends TSchema,
  Update extends TSchema,
  DeleteQuery extends TSchema,
> {
  /** Plural, as in the path and the list envelope: 'ponds'. */
  collection: string;
  /** Singular, capitalised, as in messages: 'Pond'. */
  noun: string;
  schemas: { item: TObject; create: Create; update: Update; deleteQuery: DeleteQuery };
  summaries: { update: string; delete: string };
  list(db: DbOrTrx, accountId: number): Parameters<typeof paginate<Row>>[1]['query'];
  find(db: DbOrTrx, accountId: number, id: number): Promise<Row | undefined>;
  present(db: DbOrTrx, rows: Row[]): Promise<object[]>;
  create(trx: Trx, accountId: number, body: Static<Create>, now: string): Promise<number>;
  update(
    trx: Trx,
    accountId: number,
    id: number,
    body: Static<Update>,
    now: string,
  ): Promise<unknown>;
  remove(
    trx: Trx,
    accountId: number,
    id: number,
    query: Static<DeleteQuery>,
    now: string,
  ): Promise<unknown>;
}

/** GET list / GET one for everyone; POST / PUT / DELETE for Owner and Admin (Gate.admin). */
export function userListResourceRoutes<
  Row extends { id: number },
  Create extends TSchema,
  Update extends TSchema,
  DeleteQuery extends TSchema,
>(spec: UserListResource<Row, Create, Update, DeleteQuery>): RoutePlugin {
  const { collection, noun, schemas } = spec;
  const tags = [collection];
  const a = noun.toLowerCase();
  return async (app, { ctx }) => {
    const { db } = ctx;
    const now = () => isoSeconds(ctx.clock.now());
    const load = async (accountId: number, id: number) => {
      const row = await spec.find(db, accountId, id);
      if (!row) throw notFound(`${noun} ${id}`);
      return (await spec.present(db, [row]))[0];
    };

    app.get(
      `/v1/${collection}`,
      {
        schema: {
          tags,
          summary: `List ${collection}`,
          querystring: ListQuery,
          response: responses({ 200: ListEnvelope(collection, schemas.item) }),
        },
      },
      async (request) => {
        const page = await paginate<Row>(request, {
          collection,
          query: spec.list(db, request.auth.accountId),
          page: readPage(request.query),
          sort: readSort(request.query.sort, { name: 'name', created: 'created_at' }, 'id'),
          idExpression: 'id',
          publicUrl: ctx.config.publicUrl,
        });
        return { _metadata: page.metadata, [collection]: await spec.present(db, page.rows) };
      },
    );

    app.get(
      `/v1/${collection}/:id`,
      {
        schema: {
          tags,
          summary: `Get a ${a}`,
          params: IdParams,
          response: responses({ 200: schemas.item }),
        },
      },
      async (request) => load(request.auth.accountId, request.params.id),
    );

    app.post(
      `/v1/${collection}`,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: `Create a ${a} (Owner, Admin)`,
          body: schemas.create,
          response: responses({ 201: schemas.item }),
        },
      },
      async (request, reply) => {
        const { accountId } = request.auth;
        const body = request.body as Static<Create>;
        const id = await db
          .transaction()
          .execute((trx) => spec.create(trx, accountId, body, now()));
        return reply.code(201).send((await load(accountId, id)) as Record<string, unknown>);
      },
    );

    app.put(
      `/v1/${collection}/:id`,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: spec.summaries.update,
          params: IdParams,
          body: schemas.update,
          response: responses({ 200: schemas.item }),
        },
      },
      async (request) => {
        const { accountId } = request.auth;
        const { id } = request.params;
        const body = request.body as Static<Update>;
        await db.transaction().execute((trx) => spec.update(trx, accountId, id, body, now()));
        return load(accountId, id);
      },
    );

    app.delete(
      `/v1/${collection}/:id`,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: spec.summaries.delete,
          params: IdParams,
          querystring: schemas.deleteQuery,
          response: responses({ 204: Type.Null() }),
        },
      },
      async (request, reply) => {
        const { accountId } = request.auth;
        const { id } = request.params;
        const query = request.query as Static<DeleteQuery>;
        await db.transaction().execute((trx) => spec.remove(trx, accountId, id, query, now()));
        return reply.code(204).send(null);
      },
    );
  };
}
