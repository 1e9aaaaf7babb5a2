import type { DbOrTrx } from '../../platform/db/database.js';
import type { ConditionsInput, TriggerInput } from './automations.schemas.js';

/** What a trigger's conditions look at on a person. */
export interface PersonFacts {
  id: number;
  stage: string | null;
  source: string;
  tags: string[];
  assignedUserId: number | null;
  /** the type of the lead event that brought them in, if any */
  firstEventType: string | null;
}

const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
const oneOf = (value: string | null, list: string[] | undefined) =>
  list === undefined || list.length === 0 || list.some((item) => same(value, item));

function meetsConditions(person: PersonFacts, conditions: ConditionsInput | undefined): boolean {
  if (!conditions) return true;
  if (conditions.stage !== undefined && !same(person.stage, conditions.stage)) return false;
  if (conditions.source !== undefined && !same(person.source, conditions.source)) return false;
  if (
    conditions.assignedUserId !== undefined &&
    person.assignedUserId !== conditions.assignedUserId
  )
    return false;
  return (conditions.tags ?? []).every((tag) => person.tags.some((t) => same(t, tag)));
}

/** Pure: does the person pass the trigger's own filters (personCreated) and its conditions? */
export function personQualifies(trigger: TriggerInput, person: PersonFacts): boolean {
  if (trigger.type === 'personCreated') {
    if (!oneOf(person.source, trigger.sources)) return false;
    if (!oneOf(person.firstEventType, trigger.eventTypes)) return false;
  }
  return meetsConditions(person, trigger.conditions);
}

/** The facts of people of one account (those gone are left out). */
export async function loadPersonFacts(
  db: DbOrTrx,
  accountId: number,
  personIds: number[],
  withEventTypes: boolean,
): Promise<PersonFacts[]> {
  if (personIds.length === 0) return [];
  const rows = await db
    .selectFrom('people')
    .leftJoin('stages', 'stages.id', 'people.stage_id')
    .select([
      'people.id',
      'people.source',
      'people.tags',
      'people.assigned_user_id',
      'stages.name as stage',
    ])
    .where('people.account_id', '=', accountId)
    .where('people.id', 'in', personIds)
    .execute();
  const firstTypes = new Map<number, string>();
  if (withEventTypes) {
    const events = await db
      .selectFrom('lead_events')
      .select(['person_id', 'type'])
      .where('account_id', '=', accountId)
      .where('person_id', 'in', personIds)
      .orderBy('id', 'desc')
      .execute();
    for (const e of events) firstTypes.set(e.person_id, e.type);
  }
  return rows.map((r) => ({
    id: r.id,
    stage: r.stage,
    source: r.source,
    tags: JSON.parse(r.tags) as string[],
    assignedUserId: r.assigned_user_id,
    firstEventType: firstTypes.get(r.id) ?? null,
  }));
}
