import type { Static } from '@sinclair/typebox';
import type { DbOrTrx, Trx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { ApiError, badRequest } from '../platform/http/errors.js';
import {
  applyCustomValues,
  type CustomFieldDefinition,
  loadDefinitions,
} from '../contacts/customFields/customFields.values.js';
import { visiblePersonIds } from '../access/visibility.js';
import type { DealCreateBody, DealUpdateBody } from './deals.schemas.js';
import type { DealRow } from './deals.repo.js';
import type { DealStatus } from './deals.tables.js';
import { dateOf } from '../platform/time.js';

// A deal's state, and a request body applied to it (ids checked in the caller's account).

type DealInput = Static<typeof DealUpdateBody> | Static<typeof DealCreateBody>;

/** The stored state of a deal, in the shape the service compares. */
export interface DealState {
  name: string;
  description: string;
  stageId: number | null;
  pipelineId: number | null;
  status: DealStatus;
  price: number | null;
  projectedCloseDate: string | null;
  earnestMoneyDueDate: string | null;
  possessionDate: string | null;
  commissionValue: number | null;
  agentCommission: number | null;
  teamCommission: number | null;
  orderWeight: number;
  custom: Record<string, unknown>;
  peopleIds: number[];
  userIds: number[];
}

export function dealStateFromRow(
  row: DealRow,
  links: { people: { id: number }[]; users: { id: number }[] },
): DealState {
  return {
    name: row.name,
    description: row.description,
    stageId: row.stage_id,
    pipelineId: row.pipeline_id,
    status: row.status,
    price: row.price,
    projectedCloseDate: row.projected_close_date,
    earnestMoneyDueDate: row.earnest_money_due_date,
    possessionDate: row.possession_date,
    commissionValue: row.commission_value,
    agentCommission: row.agent_commission,
    teamCommission: row.team_commission,
    orderWeight: row.order_weight,
    custom: JSON.parse(row.custom),
    peopleIds: links.people.map((p) => p.id),
    userIds: links.users.map((u) => u.id),
  };
}

export function emptyDealState(): DealState {
  return {
    name: '',
    description: '',
    stageId: null,
    pipelineId: null,
    status: 'Active',
    price: null,
    projectedCloseDate: null,
    earnestMoneyDueDate: null,
    possessionDate: null,
    commissionValue: null,
    agentCommission: null,
    teamCommission: null,
    orderWeight: 0,
    custom: {},
    peopleIds: [],
    userIds: [],
  };
}

/** Both spellings are accepted (real clients send `agentCommision`/`teamComission`); they must agree. */
function commission(
  input: DealInput,
  right: 'agentCommission' | 'teamCommission',
  wrong: 'agentCommision' | 'teamComission',
) {
  const a = input[right];
  const b = input[wrong];
  if (a !== undefined && b !== undefined && a !== b)
    throw badRequest(`'${right}' and '${wrong}' disagree; send one of them`);
  return a !== undefined ? a : b;
}

/** The date-only fields of a deal (the real API's earnest money and possession dates too). */
const DEAL_DATES = ['projectedCloseDate', 'earnestMoneyDueDate', 'possessionDate'] as const;

function dealDate(raw: string | null, field: string): string | null {
  if (raw === null || raw.trim() === '') return null;
  const value = dateOf(raw);
  if (value === null) {
    throw badRequest(`'${field}' must be a date (YYYY-MM-DD), got '${raw}'`, [
      { field, message: 'invalid date' },
    ]);
  }
  return value;
}

async function stageInAccount(
  db: DbOrTrx,
  accountId: number,
  stageId: number,
  pipelineId: number | undefined,
) {
  const stage = await db
    .selectFrom('pipeline_stages')
    .select(['id', 'pipeline_id'])
    .where('account_id', '=', accountId)
    .where('id', '=', stageId)
    .executeTakeFirst();
  if (!stage)
    throw badRequest(
      `stageId: no pipeline stage ${stageId} in this account; see GET /v1/pipelines`,
      [{ field: 'stageId', message: 'unknown stage' }],
    );
  if (pipelineId !== undefined && pipelineId !== stage.pipeline_id) {
    throw badRequest(
      `pipelineId ${pipelineId} does not match stage ${stageId}, which belongs to pipeline ${stage.pipeline_id}`,
      [{ field: 'pipelineId', message: 'does not match the stage' }],
    );
  }
  return stage;
}

async function checkPeople(db: DbOrTrx, auth: AuthUser, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = new Set(
    (await visiblePersonIds(db, auth).where('people.id', 'in', unique).execute()).map((r) => r.id),
  );
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length)
    throw badRequest(`peopleIds: no person ${missing.join(', ')} that you can see`, [
      { field: 'peopleIds', message: 'unknown person' },
    ]);
  return unique.sort((a, b) => a - b);
}

async function checkUsers(db: DbOrTrx, accountId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = new Set(
    (
      await db
        .selectFrom('users')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', 'in', unique)
        .execute()
    ).map((r) => r.id),
  );
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length)
    throw badRequest(`userIds: no user ${missing.join(', ')} in this account`, [
      { field: 'userIds', message: 'unknown user' },
    ]);
  return unique.sort((a, b) => a - b);
}

/** Applies a body to a deal's state, resolving and checking every reference in the caller's account. */
export async function applyDealInput(
  trx: Trx,
  auth: AuthUser,
  current: DealState,
  input: DealInput,
): Promise<DealState> {
  const next: DealState = { ...current };
  if (input.name !== undefined) next.name = input.name.trim();
  if (input.description !== undefined) next.description = input.description;
  if (input.stageId !== undefined) {
    const stage = await stageInAccount(trx, auth.accountId, input.stageId, input.pipelineId);
    next.stageId = stage.id;
    next.pipelineId = stage.pipeline_id;
  } else if (input.pipelineId !== undefined && input.pipelineId !== current.pipelineId) {
    throw badRequest(
      'pipelineId follows from stageId: send the stageId of a stage in that pipeline',
      [{ field: 'pipelineId', message: 'set stageId instead' }],
    );
  }
  if (input.status !== undefined) next.status = input.status;
  if (input.price !== undefined) next.price = input.price;
  for (const field of DEAL_DATES)
    if (input[field] !== undefined) next[field] = dealDate(input[field], field);
  if (input.commissionValue !== undefined) next.commissionValue = input.commissionValue;
  const agent = commission(input, 'agentCommission', 'agentCommision');
  if (agent !== undefined) next.agentCommission = agent;
  const team = commission(input, 'teamCommission', 'teamComission');
  if (team !== undefined) next.teamCommission = team;
  if (input.orderWeight !== undefined) next.orderWeight = input.orderWeight;
  if (input.peopleIds !== undefined) next.peopleIds = await checkPeople(trx, auth, input.peopleIds);
  if (input.userIds !== undefined)
    next.userIds = await checkUsers(trx, auth.accountId, input.userIds);
  next.custom = dealCustomValues(
    current.custom,
    input as Record<string, unknown>,
    await loadDefinitions(trx, auth.accountId, 'deal'),
  );
  return next;
}

/** The shared custom-value check, with its hint pointing at the deal custom fields. */
function dealCustomValues(
  current: Record<string, unknown>,
  body: Record<string, unknown>,
  definitions: CustomFieldDefinition[],
) {
  try {
    return applyCustomValues(current, body, definitions);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fix = (text: string) =>
      text.replaceAll('POST /v1/customFields', 'POST /v1/dealCustomFields');
    throw badRequest(
      fix(err.message),
      err.errors?.map((e) => ({ field: e.field, message: fix(e.message) })),
    );
  }
}

export function dealColumns(state: DealState) {
  return {
    name: state.name,
    description: state.description,
    stage_id: state.stageId,
    pipeline_id: state.pipelineId,
    status: state.status,
    price: state.price,
    projected_close_date: state.projectedCloseDate,
    earnest_money_due_date: state.earnestMoneyDueDate,
    possession_date: state.possessionDate,
    commission_value: state.commissionValue,
    agent_commission: state.agentCommission,
    team_commission: state.teamCommission,
    order_weight: state.orderWeight,
    custom: JSON.stringify(state.custom),
  };
}
