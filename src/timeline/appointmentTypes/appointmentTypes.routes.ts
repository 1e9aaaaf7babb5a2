import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  APPOINTMENT_OUTCOMES,
  APPOINTMENT_TYPES,
  capitalized,
  type LabelKind,
} from './appointmentTypes.kinds.js';
import { findLabel, labelsList, type LabelRow, presentLabel } from './appointmentTypes.repo.js';
import {
  Label,
  LabelCreateBody,
  labelDeleteSchemas,
  LabelListQuery,
  LabelUpdateBody,
} from './appointmentTypes.schemas.js';
import { createLabel, deleteLabel, updateLabel } from './appointmentTypes.service.js';

/**
 * `/v1/appointmentTypes` and `/v1/appointmentOutcomes`: the account's lists of what an appointment
 * is and how it went. Anyone reads; Owner and Admin change them.
 */
function labelRoutes(kind: LabelKind): RoutePlugin {
  const tags = [kind.tag];
  const Noun = capitalized(kind.noun);
  const deleteSchemas = labelDeleteSchemas(kind);

  return async (app, { ctx }) => {
    const { db, dialect } = ctx;
    const load = async (accountId: number, id: number) => {
      const row = await findLabel(db, kind, accountId, id);
      if (!row) throw notFound(`${Noun} ${id}`);
      return presentLabel(row);
    };

    app.get(
      kind.path,
      {
        schema: {
          tags,
          summary: `List ${kind.noun}s (by orderWeight unless sort says otherwise)`,
          querystring: LabelListQuery,
          response: responses({ 200: ListEnvelope(kind.collection, Label) }),
        },
      },
      async (request) => {
        const q = request.query;
        const page = await paginate<LabelRow>(request, {
          collection: kind.collection,
          query: labelsList(db, kind, request.auth.accountId, q),
          page: readPage(q),
          sort: readSort(
            q.sort ?? 'orderWeight',
            { orderWeight: 'order_weight', name: 'name' },
            'id',
          ),
          idExpression: 'id',
          publicUrl: ctx.config.publicUrl,
        });
        return { _metadata: page.metadata, [kind.collection]: page.rows.map(presentLabel) };
      },
    );

    app.get(
      `${kind.path}/:id`,
      {
        schema: {
          tags,
          summary: `Get an ${kind.noun}`,
          params: IdParams,
          response: responses({ 200: Label }),
        },
      },
      async (request) => load(request.auth.accountId, request.params.id),
    );

    app.post(
      kind.path,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: `Create an ${kind.noun} (Owner, Admin); names are unique in the account`,
          body: LabelCreateBody,
          response: responses({ 201: Label }),
        },
      },
      async (request, reply) => {
        const { accountId } = request.auth;
        const at = isoSeconds(ctx.clock.now());
        const id = await createLabel(db, dialect, kind, accountId, request.body, at);
        return reply.code(201).send(await load(accountId, id));
      },
    );

    app.put(
      `${kind.path}/:id`,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: `Rename or reorder an ${kind.noun} (Owner, Admin)`,
          params: IdParams,
          body: LabelUpdateBody,
          response: responses({ 200: Label }),
        },
      },
      async (request) => {
        const { accountId } = request.auth;
        const at = isoSeconds(ctx.clock.now());
        await updateLabel(db, dialect, kind, accountId, request.params.id, request.body ?? {}, at);
        return load(accountId, request.params.id);
      },
    );

    app.delete(
      `${kind.path}/:id`,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: `Delete an ${kind.noun} (Owner, Admin); its appointments move to ${kind.assignParam} (query or body), required when there are any`,
          params: IdParams,
          querystring: deleteSchemas.querystring,
          body: deleteSchemas.body,
          response: responses({ 204: Type.Null() }),
        },
      },
      async (request, reply) => {
        const fromQuery = (request.query as Record<string, number | undefined>)[kind.assignParam];
        const fromBody = (request.body as Record<string, number | undefined> | null | undefined)?.[
          kind.assignParam
        ];
        if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
          throw badRequest(
            `${kind.assignParam} differs between the query and the body; send it once`,
          );
        }
        const now = ctx.clock.now();
        await deleteLabel(
          db,
          dialect,
          kind,
          request.auth.accountId,
          request.params.id,
          fromQuery ?? fromBody,
          isoSeconds(now),
          now,
        );
        return reply.code(204).send(null);
      },
    );
  };
}

export const appointmentTypesRoutes = labelRoutes(APPOINTMENT_TYPES);
export const appointmentOutcomesRoutes = labelRoutes(APPOINTMENT_OUTCOMES);
