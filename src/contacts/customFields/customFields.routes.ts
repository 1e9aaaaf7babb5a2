import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  CustomField,
  CustomFieldCreateBody,
  CustomFieldListQuery,
  CustomFieldUpdateBody,
} from './customFields.schemas.js';
import { presentCustomField } from './customFields.presenter.js';
import { type CustomFieldRow, customFieldsQuery, findCustomField } from './customFields.repo.js';
import {
  changeCustomField,
  type CustomFieldKind,
  createCustomField,
  removeCustomField,
} from './customFields.service.js';

export interface CustomFieldRoutesSpec extends CustomFieldKind {
  path: string;
  collection: string;
  tag: string;
}

/** Definitions of custom fields, for people (`/v1/customFields`) and deals (`/v1/dealCustomFields`). */
export function customFieldRoutes(spec: CustomFieldRoutesSpec): RoutePlugin {
  return async (app, { ctx }) => {
    const { db, config } = ctx;
    const tags = [spec.tag];
    const now = () => isoSeconds(ctx.clock.now());

    app.get(
      spec.path,
      {
        schema: {
          tags,
          summary: `List ${spec.entity} custom fields`,
          querystring: CustomFieldListQuery,
          response: responses({ 200: ListEnvelope(spec.collection, CustomField) }),
        },
      },
      async (request) => {
        const sort = readSort(
          request.query.sort,
          { orderWeight: 'order_weight', label: 'label', name: 'name' },
          'id',
        );
        const page = await paginate<CustomFieldRow>(request, {
          collection: spec.collection,
          query: customFieldsQuery(db, request.auth.accountId, spec.entity),
          page: readPage(request.query),
          sort,
          idExpression: 'id',
          publicUrl: config.publicUrl,
        });
        return { _metadata: page.metadata, [spec.collection]: page.rows.map(presentCustomField) };
      },
    );

    app.get(
      `${spec.path}/:id`,
      {
        schema: {
          tags,
          summary: `Get a ${spec.entity} custom field`,
          params: IdParams,
          response: responses({ 200: CustomField }),
        },
      },
      async (request) => {
        const { accountId } = request.auth;
        const row = await findCustomField(db, accountId, spec.entity, request.params.id);
        if (!row) throw notFound('Custom field');
        return presentCustomField(row);
      },
    );

    app.post(
      spec.path,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: `Define a ${spec.entity} custom field (Owner, Admin)`,
          body: CustomFieldCreateBody,
          response: responses({ 201: CustomField }),
        },
      },
      async (request, reply) => {
        const row = await createCustomField(db, spec, request.auth.accountId, request.body, now());
        return reply.code(201).send(presentCustomField(row));
      },
    );

    app.put(
      `${spec.path}/:id`,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: `Update a ${spec.entity} custom field (Owner, Admin)`,
          params: IdParams,
          body: CustomFieldUpdateBody,
          response: responses({ 200: CustomField }),
        },
      },
      async (request) => {
        const { accountId } = request.auth;
        const id = request.params.id;
        return presentCustomField(
          await changeCustomField(db, spec, accountId, id, request.body, now()),
        );
      },
    );

    app.delete(
      `${spec.path}/:id`,
      {
        config: { gate: Gate.admin },
        schema: {
          tags,
          summary: `Delete a ${spec.entity} custom field and its values (Owner, Admin)`,
          params: IdParams,
          response: responses({ 204: Type.Null() }),
        },
      },
      async (request, reply) => {
        await removeCustomField(db, ctx.dialect, spec, request.auth.accountId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}

export const personCustomFieldRoutes = customFieldRoutes({
  path: '/v1/customFields',
  entity: 'person',
  collection: 'customfields',
  valuesTable: 'people',
  events: {
    created: 'customFieldsCreated',
    updated: 'customFieldsUpdated',
    deleted: 'customFieldsDeleted',
  },
  tag: 'customFields',
});
