import { type Kysely, type Selectable, sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { DB, OutboxTable, Trx } from '../../platform/db/database.js';
import { insertRows } from '../../platform/db/reusable-query.js';
import { isoSeconds } from '../../platform/time.js';
import type { TriggerInput } from './automations.schemas.js';
import { loadPersonFacts, personQualifies } from './conditions.js';
import { startRuns } from './runs.js';

/**
 * Not a webhook event (the fan-out finds no webhook for it): a deal entered a stage, with
 * `{pipelineId, stageId}`, for dealStageChanged triggers.
 */
export const DEAL_STAGE_ENTERED = 'dealStageEntered';

/** Outbox events that fire triggers, and the trigger type each fires. */
const FIRES: Record<string, TriggerInput['type']> = {
  peopleCreated: 'personCreated',
  peopleStageUpdated: 'stageChanged',
  peopleTagsCreated: 'tagAdded',
  [DEAL_STAGE_ENTERED]: 'dealStageChanged',
};

/** People looked up per query (a bound parameter each). */
const FACTS_PER_QUERY = 500;

type OutboxRow = Selectable<OutboxTable>;
interface Armed {
  id: number;
  account_id: number;
  trigger: TriggerInput;
}

/** Records that a deal entered a stage, in the deal's transaction (deals.service.ts). */
export async function noteDealStageEntered(
  trx: Trx,
  accountId: number,
  dealId: number,
  deal: { pipelineId: number | null; stageId: number | null },
): Promise<void> {
  if (deal.stageId === null) return;
  await insertRows(trx, 'outbox', [
    {
      account_id: accountId,
      event: DEAL_STAGE_ENTERED,
      resource_ids: JSON.stringify([dealId]),
      data: JSON.stringify({ pipelineId: deal.pipelineId, stageId: deal.stageId }),
      created_at: isoSeconds(Date.now()),
      dispatched_at: null,
    },
  ]);
}

const same = (a: unknown, b: string) =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** Pure: does the event (its data) fire this trigger? */
function eventFires(trigger: TriggerInput, data: Record<string, unknown>): boolean {
  switch (trigger.type) {
    case 'personCreated':
      return true;
    case 'stageChanged':
      return same(data.stage, trigger.stage);
    case 'tagAdded':
      return Array.isArray(data.tags) && data.tags.some((t) => same(t, trigger.tag));
    case 'dealStageChanged':
      return data.pipelineId === trigger.pipelineId && data.stageId === trigger.stageId;
    default:
      return false;
  }
}

async function peopleOf(trx: Trx, row: OutboxRow): Promise<number[]> {
  const ids = JSON.parse(row.resource_ids) as number[];
  if (row.event !== DEAL_STAGE_ENTERED) return ids;
  const links = await trx
    .selectFrom('deal_people')
    .select('person_id')
    .where('deal_id', 'in', ids)
    .execute();
  return links.map((l) => l.person_id);
}

/**
 * Starts the runs that outbox rows trigger, in the fan-out's transaction: each row is read once,
 * so each event starts its runs once. The loop rule: a row caused by an automation's action
 * (outbox.automation_id) never starts that automation.
 */
export async function startTriggeredRuns(
  ctx: Pick<AppContext, 'clock'>,
  trx: Trx,
  rows: OutboxRow[],
): Promise<void> {
  const firing = rows.filter((r) => Object.hasOwn(FIRES, r.event));
  if (firing.length === 0) return;
  const automations = await trx
    .selectFrom('automations')
    .select(['id', 'account_id', 'trigger'])
    .where('status', '=', 'Active')
    .where('account_id', 'in', [...new Set(firing.map((r) => r.account_id))])
    .where('trigger_type', 'in', [...new Set(firing.map((r) => FIRES[r.event]))])
    .execute();
  if (automations.length === 0) return;
  const armed: Armed[] = automations.map((a) => ({ ...a, trigger: JSON.parse(a.trigger) }));
  const candidates = new Map<Armed, Set<number>>();
  for (const row of firing) {
    const data = row.data === null ? {} : (JSON.parse(row.data) as Record<string, unknown>);
    const fired = armed.filter(
      (a) =>
        a.account_id === row.account_id &&
        a.trigger.type === FIRES[row.event] &&
        a.id !== row.automation_id &&
        eventFires(a.trigger, data),
    );
    if (fired.length === 0) continue;
    const people = await peopleOf(trx, row);
    for (const a of fired) {
      const set = candidates.get(a) ?? new Set<number>();
      for (const id of people) set.add(id);
      candidates.set(a, set);
    }
  }
  for (const [automation, people] of candidates) {
    await startQualifying(ctx, trx, automation, [...people]);
  }
}

/** Starts the automation for those of `personIds` who meet its trigger's conditions. */
export async function startQualifying(
  ctx: Pick<AppContext, 'clock'>,
  trx: Trx,
  automation: Armed,
  personIds: number[],
): Promise<number[]> {
  const withEventTypes =
    automation.trigger.type === 'personCreated' && !!automation.trigger.eventTypes?.length;
  const qualifying: number[] = [];
  for (let i = 0; i < personIds.length; i += FACTS_PER_QUERY) {
    const part = personIds.slice(i, i + FACTS_PER_QUERY);
    const facts = await loadPersonFacts(trx, automation.account_id, part, withEventTypes);
    for (const p of facts) if (personQualifies(automation.trigger, p)) qualifying.push(p.id);
  }
  if (qualifying.length === 0) return [];
  return startRuns(ctx, trx, automation.account_id, automation.id, qualifying);
}

/**
 * The fan-out's one call: starts the triggered runs inside a savepoint, so that a failure here is
 * logged and rolled back alone, and never holds up webhook deliveries.
 */
export async function startTriggeredRunsApart(
  ctx: Pick<AppContext, 'clock' | 'log'>,
  fanOutTransaction: Kysely<DB>,
  rows: OutboxRow[],
): Promise<void> {
  const trx = fanOutTransaction as Trx;
  await sql`savepoint automation_triggers`.execute(trx);
  try {
    await startTriggeredRuns(ctx, trx, rows);
    await sql`release savepoint automation_triggers`.execute(trx);
  } catch (err) {
    await sql`rollback to savepoint automation_triggers`.execute(trx);
    ctx.log.error({ err }, 'automation triggers failed for a batch of events; they start no runs');
  }
}
