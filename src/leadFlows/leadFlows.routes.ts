import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { DbOrTrx, Trx } from '../db/database.js';
import { requireRole } from '../http/auth.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { IdParams, Nullable, responses, SystemField } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage, readSort } from '../http/pagination.js';
import { isoSeconds } from '../time.js';
import { cleanSource } from '../people/people.service.js';
import { type LeadFlowRow, sourceKey } from './leadFlows.service.js';
import '../actionPlans/actionPlans.tables.js';

const LeadFlow = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  source: Type.String(),
  status: Type.String(),
  assignedUserId: Nullable(Type.Integer()),
  groupId: Nullable(Type.Integer()),
  actionPlanId: Nullable(Type.Integer()),
  stageId: Nullable(Type.Integer()),
});

const Status = Type.Union([Type.Literal('Active'), Type.Literal('Archived')]);
const OptionalRef = (description: string) => Type.Optional(Nullable(Type.Integer({ minimum: 1, description })));
const flowFields = {
  source: Type.String({ minLength: 1, maxLength: 300, description: "The lead source this flow handles (a website's domain without www.)" }),
  status: Type.Optional(Status),
  assignedUserId: OptionalRef('Assign new leads to this user'),
  groupId: OptionalRef('Or share them round-robin across this group'),
  actionPlanId: OptionalRef('Start this action plan for new leads of triggering types'),
  stageId: OptionalRef('Put new leads in this stage'),
  ...SystemField,
};
const CreateBody = Type.Object(flowFields, { additionalProperties: false });
const UpdateBody = Type.Object({ ...flowFields, source: Type.Optional(flowFields.source) }, { additionalProperties: false });
type FlowInput = Static<typeof UpdateBody>;

export function presentLeadFlow(row: LeadFlowRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    source: row.source,
    status: row.status,
    assignedUserId: row.assigned_user_id,
    groupId: row.group_id,
    actionPlanId: row.action_plan_id,
    stageId: row.stage_id,
  };
}

/** Checks that every record a flow names belongs to the account; 400 naming the field otherwise. */
async function checkReferences(trx: Trx, accountId: number, body: FlowInput, merged: { assigned_user_id: number | null; group_id: number | null }) {
  if (merged.assigned_user_id !== null && merged.group_id !== null) {
    throw badRequest('Give either assignedUserId or groupId, not both', [{ field: 'groupId', message: 'conflicts with assignedUserId' }]);
  }
  const exists = async (table: 'users' | 'user_groups' | 'stages' | 'action_plans', id: number | null | undefined, field: string, what: string) => {
    if (id === null || id === undefined) return;
    const row = await trx.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (!row) throw badRequest(`${field}: no ${what} ${id} in this account`, [{ field, message: `unknown ${what}` }]);
  };
  await exists('users', body.assignedUserId, 'assignedUserId', 'user');
  await exists('user_groups', body.groupId, 'groupId', 'group');
  await exists('stages', body.stageId, 'stageId', 'stage');
  await exists('action_plans', body.actionPlanId, 'actionPlanId', 'action plan');
}

const tags = ['leadFlows'];

/** /v1/leadFlows: per-source rules for new leads. Owner and Admin only. */
export const leadFlowsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const byId = (accountId: number, id: number, handle: DbOrTrx = db) => handle.selectFrom('lead_flows').selectAll().where('account_id', '=', accountId).where('id', '=', id);
  const sourceTaken = async (trx: Trx, accountId: number, key: string, exceptId: number) => {
    const row = await trx.selectFrom('lead_flows').select('id').where('account_id', '=', accountId).where('source_key', '=', key).where('id', '!=', exceptId).executeTakeFirst();
    if (row) throw conflict(`A lead flow for source '${key}' already exists (id ${row.id}); update it instead`);
  };

  app.get('/v1/leadFlows', {
    schema: {
      tags,
      summary: 'List lead flows (Owner, Admin)',
      querystring: Type.Object({ ...PageQuery, source: Type.Optional(Type.String()), status: Type.Optional(Status), sort: Type.Optional(Type.String()), system: Type.Optional(Type.String()) }, { additionalProperties: false }),
      response: responses({ 200: ListEnvelope('leadFlows', LeadFlow) }),
    },
  }, async (request) => {
    requireRole(request, 'Owner', 'Admin');
    const q = request.query;
    let query = db.selectFrom('lead_flows').selectAll().where('account_id', '=', request.auth.accountId);
    if (q.source) query = query.where('source_key', '=', sourceKey(q.source));
    if (q.status) query = query.where('status', '=', q.status);
    const page = await paginate<LeadFlowRow>(request, {
      collection: 'leadFlows', query, page: readPage(q), sort: readSort(q.sort, { source: 'source_key', created: 'created_at' }, 'id'), idExpression: 'id', publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, leadFlows: page.rows.map(presentLeadFlow) };
  });

  app.get('/v1/leadFlows/:id', {
    schema: { tags, summary: 'Get a lead flow (Owner, Admin)', params: IdParams, response: responses({ 200: LeadFlow }) },
  }, async (request) => {
    requireRole(request, 'Owner', 'Admin');
    const row = await byId(request.auth.accountId, request.params.id).executeTakeFirst();
    if (!row) throw notFound(`Lead flow ${request.params.id}`);
    return presentLeadFlow(row);
  });

  app.post('/v1/leadFlows', {
    schema: { tags, summary: 'Create the lead flow of a source (Owner, Admin)', body: CreateBody, response: responses({ 201: LeadFlow }) },
  }, async (request, reply) => {
    requireRole(request, 'Owner', 'Admin');
    const { accountId } = request.auth;
    const body = request.body;
    const source = cleanSource(body.source);
    if (!source) throw badRequest("Field 'source' must not be blank", [{ field: 'source', message: 'blank' }]);
    const row = await db.transaction().execute(async (trx) => {
      await sourceTaken(trx, accountId, sourceKey(source), 0);
      const refs = { assigned_user_id: body.assignedUserId ?? null, group_id: body.groupId ?? null };
      await checkReferences(trx, accountId, body, refs);
      const at = now();
      return trx
        .insertInto('lead_flows')
        .values({
          account_id: accountId, source, source_key: sourceKey(source), status: body.status ?? 'Active', ...refs,
          action_plan_id: body.actionPlanId ?? null, stage_id: body.stageId ?? null, created_at: at, updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return reply.code(201).send(presentLeadFlow(row));
  });

  app.put('/v1/leadFlows/:id', {
    schema: { tags, summary: 'Update a lead flow; status Archived makes its leads be ignored (204) (Owner, Admin)', params: IdParams, body: UpdateBody, response: responses({ 200: LeadFlow }) },
  }, async (request) => {
    requireRole(request, 'Owner', 'Admin');
    const { accountId } = request.auth;
    const body = request.body;
    const row = await db.transaction().execute(async (trx) => {
      const current = await byId(accountId, request.params.id, trx).executeTakeFirst();
      if (!current) throw notFound(`Lead flow ${request.params.id}`);
      const source = body.source === undefined ? current.source : cleanSource(body.source);
      if (!source) throw badRequest("Field 'source' must not be blank", [{ field: 'source', message: 'blank' }]);
      await sourceTaken(trx, accountId, sourceKey(source), current.id);
      const pick = <T>(value: T | null | undefined, stored: T | null) => (value === undefined ? stored : value);
      const refs = { assigned_user_id: pick(body.assignedUserId, current.assigned_user_id), group_id: pick(body.groupId, current.group_id) };
      // Naming one kind of assignee replaces the other.
      if (body.assignedUserId && body.groupId === undefined) refs.group_id = null;
      if (body.groupId && body.assignedUserId === undefined) refs.assigned_user_id = null;
      await checkReferences(trx, accountId, body, refs);
      return trx
        .updateTable('lead_flows')
        .set({
          source, source_key: sourceKey(source), status: body.status ?? current.status, ...refs,
          action_plan_id: pick(body.actionPlanId, current.action_plan_id), stage_id: pick(body.stageId, current.stage_id), updated_at: now(),
        })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return presentLeadFlow(row);
  });

  app.delete('/v1/leadFlows/:id', {
    schema: { tags, summary: 'Delete a lead flow; its source falls back to the default flow (Owner, Admin)', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    requireRole(request, 'Owner', 'Admin');
    const deleted = await db.deleteFrom('lead_flows').where('account_id', '=', request.auth.accountId).where('id', '=', request.params.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound(`Lead flow ${request.params.id}`);
    return reply.code(204).send(null);
  });
};
