import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest } from '../../platform/http/errors.js';
import { enqueueJob } from '../../platform/jobs/queue.js';
import { insertRows } from '../../platform/db/reusable-query.js';
import { isoSeconds } from '../../platform/time.js';
import { assertGate, Gate } from '../../access/gates.js';
import { userInAccount } from '../people/people.input.js';
import type { BulkActionBody } from './bulkActions.schemas.js';
import { fixPeople } from './bulkActions.repo.js';
import { BULK_ACTION_JOB } from './bulkActions.job.js';

type Body = Static<typeof BulkActionBody>;

/** The action's value, checked before anyone is changed; null for delete. */
async function checkedValue(ctx: AppContext, auth: AuthUser, body: Body): Promise<string | null> {
  const raw = body.value === undefined ? '' : String(body.value).trim();
  if (body.action === 'delete') {
    assertGate(Gate.personDeleter, auth);
    return null;
  }
  if (!raw)
    throw badRequest(`'value' is required for ${body.action}`, [
      { field: 'value', message: 'missing' },
    ]);
  if (body.action === 'addTag' || body.action === 'removeTag') return raw;
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1)
    throw badRequest(`'value' must be a ${body.action === 'assign' ? 'user' : 'stage'} id`, [
      { field: 'value', message: 'not an id' },
    ]);
  if (body.action === 'assign') await userInAccount(ctx.db, auth.accountId, { id }, 'value');
  else {
    const stage = await ctx.db
      .selectFrom('stages')
      .select('id')
      .where('account_id', '=', auth.accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!stage)
      throw badRequest(`value: no stage ${id} in this account`, [
        { field: 'value', message: 'unknown stage' },
      ]);
  }
  return String(id);
}

/**
 * POST /v1/peopleBulkActions: fixes the people (those given that the caller sees, or all the
 * filter matches) and queues the job that changes them, in one transaction. Answers the action's id.
 */
export async function createBulkAction(
  ctx: AppContext,
  auth: AuthUser,
  body: Body,
): Promise<number> {
  if (!body.personIds === !body.filter)
    throw badRequest("Give either 'personIds' or 'filter'", [
      { field: 'personIds', message: 'exactly one of personIds and filter' },
    ]);
  const value = await checkedValue(ctx, auth, body);
  const at = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    const [{ id }] = (await insertRows(
      trx,
      'bulk_actions',
      [
        {
          account_id: auth.accountId,
          user_id: auth.userId,
          action: body.action,
          value,
          status: 'queued',
          total: 0,
          message: null,
          created_at: at,
          updated_at: at,
          finished_at: null,
        },
      ],
      { returning: 'id' },
    )) as { id: number }[];
    const total = await fixPeople(trx, ctx.dialect, auth, id, body);
    await trx
      .updateTable('bulk_actions')
      .set(total === 0 ? { total, status: 'done', finished_at: at } : { total })
      .where('id', '=', id)
      .execute();
    if (total > 0)
      await enqueueJob(ctx, trx, {
        accountId: auth.accountId,
        kind: BULK_ACTION_JOB,
        payload: { bulkActionId: id },
      });
    return id;
  });
}
