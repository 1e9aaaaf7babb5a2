import type { RoutePlugin } from '../../platform/http/route-types.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { BulkAction, BulkActionBody } from './bulkActions.schemas.js';
import { findVisibleBulkAction, type BulkActionRow } from './bulkActions.repo.js';
import { createBulkAction } from './bulkActions.service.js';

const tags = ['people'];

function present(row: BulkActionRow) {
  return {
    id: row.id,
    action: row.action,
    value: row.value,
    status: row.status,
    total: row.total,
    processed: row.processed,
    changed: row.changed,
    skipped: row.skipped,
    errors: JSON.parse(row.errors) as { personId: number; message: string }[],
    message: row.message,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export const bulkActionsRoutes: RoutePlugin = async (app, { ctx }) => {
  app.post(
    '/v1/peopleBulkActions',
    {
      schema: {
        tags,
        summary: 'Assign, tag, untag, move to a stage or delete many people, as one background job',
        body: BulkActionBody,
        response: responses({ 202: BulkAction }),
      },
    },
    async (request, reply) => {
      const id = await createBulkAction(ctx, request.auth, request.body);
      const row = await findVisibleBulkAction(ctx.db, request.auth, id);
      return reply.code(202).send(present(row!));
    },
  );

  app.get(
    '/v1/peopleBulkActions/:id',
    {
      schema: {
        tags,
        summary: "A bulk action's progress and outcome",
        params: IdParams,
        response: responses({ 200: BulkAction }),
      },
    },
    async (request) => {
      const row = await findVisibleBulkAction(ctx.db, request.auth, request.params.id);
      if (!row) throw notFound(`Bulk action ${request.params.id}`);
      return present(row);
    },
  );
};
