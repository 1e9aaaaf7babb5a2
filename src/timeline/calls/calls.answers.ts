import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import type { ListRequest } from '../../platform/http/pagination.js';
import { presentCall } from './calls.presenter.js';
import { calls, callsList, newCallValues } from './calls.repo.js';
import type { CallBody, CallListQuery } from './calls.schemas.js';

/**
 * What POST /v1/calls and the log_call tool do: the call stored (an outgoing one marks the person
 * contacted), as GET shows it. `system` names the system that logged it ('' for none).
 */
export async function logCall(
  ctx: AppContext,
  auth: AuthUser,
  body: Static<typeof CallBody>,
  system: string,
) {
  const id = await calls.create(ctx, auth, (trx) => newCallValues(trx, auth, body, system), {
    touchesPerson: true,
    contactsPerson: true,
  });
  return presentCall(await calls.get(ctx.db, auth, id));
}

/** A page of the calls the caller may see (GET /v1/calls). */
export async function listCalls(
  ctx: AppContext,
  auth: AuthUser,
  request: ListRequest,
  q: Static<typeof CallListQuery>,
) {
  return calls.listed(request, ctx, 'calls', callsList(ctx.db, auth, q), q, presentCall);
}
