import type { Static } from '@sinclair/typebox';
import type { Db, Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, type FieldError } from '../../platform/http/errors.js';
import { findPersonInAccount } from '../../contacts/people/people.repo.js';
import { stateFromRow } from '../../contacts/people/people.state.js';
import { savePerson } from '../../contacts/people/people.service.js';
import { touchLastActivity } from '../../contacts/people/people.activity.js';
import { existingCampaignIds } from '../emCampaigns/emCampaigns.repo.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { isoSeconds, isoTimestamp } from '../../platform/time.js';
import type { EmEventIn } from './emEvents.schemas.js';
import type { EmEventTally } from './emEvents.counts.js';
import type { NewEmEvent } from './emEvents.tables.js';
import {
  inGroups,
  insertEmEvents,
  peopleByEmail,
  usersAmong,
  visiblePeopleAmong,
} from './emEvents.repo.js';
import {
  EMAIL_STATUS_OF_TYPE,
  ENGAGEMENT_TYPES,
  type EmEventType,
  WEBHOOK_EVENT_OF_TYPE,
} from './emEvents.types.js';

export type EmEventInput = Static<typeof EmEventIn>;

export interface EmEventsActor {
  auth: AuthUser;
  /** System identification of the request ('' for none; built-in senders name themselves). */
  system: string;
}

export interface RecordOptions {
  now: number;
  /** On PostgreSQL the people whose email status changes are locked first, so concurrent batches cannot lose an update. */
  dialect: DialectName;
  /** Leaves the counting of the events to the caller's transaction, which inserts more than once. */
  tally?: EmEventTally;
}

export interface RecordedEmEvents {
  emEventIds: number[];
  recipientsNotFound: string[];
}

/** At most this many invalid events are itemised in a 400; the message says how many there were. */
const MAX_LISTED_ERRORS = 50;

const normalEmail = (value: string) => value.trim().toLowerCase();

interface Resolved {
  campaigns: Set<number>;
  users: Set<number>;
  people: Set<number>;
  byEmail: Map<string, number>;
}

async function resolveReferences(
  trx: Trx,
  auth: AuthUser,
  events: EmEventInput[],
): Promise<Resolved> {
  const unique = <T>(values: (T | undefined)[]) => [
    ...new Set(values.filter((v): v is T => v !== undefined)),
  ];
  const campaignIds = unique(events.map((e) => e.campaignId));
  const campaigns = new Set<number>();
  for (const group of inGroups(campaignIds))
    (await existingCampaignIds(trx, auth.accountId, group)).forEach((id) => campaigns.add(id));
  const emails = unique(
    events.map((e) =>
      e.personId === undefined && e.recipient ? normalEmail(e.recipient) : undefined,
    ),
  ).filter(Boolean);
  return {
    campaigns,
    users: await usersAmong(trx, auth.accountId, unique(events.map((e) => e.userId))),
    people: await visiblePeopleAmong(trx, auth, unique(events.map((e) => e.personId))),
    byEmail: await peopleByEmail(trx, auth, emails),
  };
}

function problemsOf(event: EmEventInput, index: number, refs: Resolved): FieldError[] {
  const at = (field: string, message: string) => ({
    field: `emEvents.${index}.${field}`,
    message: `emEvents[${index}].${field}: ${message}`,
  });
  const problems: FieldError[] = [];
  if (!refs.campaigns.has(event.campaignId))
    problems.push(
      at(
        'campaignId',
        `no campaign ${event.campaignId} in this account; create it with POST /v1/emCampaigns`,
      ),
    );
  if (event.userId !== undefined && !refs.users.has(event.userId))
    problems.push(at('userId', `no user ${event.userId} in this account`));
  if (event.personId !== undefined && !refs.people.has(event.personId))
    problems.push(at('personId', `person ${event.personId} not found`));
  if (event.personId === undefined && !event.recipient?.trim())
    problems.push(
      at('recipient', 'give personId or recipient (the email address) to name the person'),
    );
  if (event.occurred !== undefined && isoTimestamp(event.occurred) === null)
    problems.push(at('occurred', `'${event.occurred}' is not an ISO 8601 date-time`));
  return problems;
}

/**
 * On PostgreSQL, locks the people this batch will update (email status, lastActivity) up front
 * and in ascending id order, so that concurrent batches touching the same people queue instead of
 * losing an update or deadlocking. NO KEY UPDATE does not conflict with the key-share locks that
 * other records' foreign keys take on a person.
 */
export async function lockPeople(
  trx: Trx,
  personIds: number[],
  dialect: DialectName,
): Promise<void> {
  if (dialect !== 'postgres' || personIds.length === 0) return;
  const ids = [...new Set(personIds)].sort((a, b) => a - b);
  for (const group of inGroups(ids))
    await trx
      .selectFrom('people')
      .select('id')
      .where('id', 'in', group)
      .orderBy('id')
      .forNoKeyUpdate()
      .execute();
}

/** Sets the status of the address an event concerns: the recipient when given, else the primary email. */
async function markEmailStatuses(
  trx: Trx,
  accountId: number,
  marks: { personId: number; recipient: string; status: string }[],
  at: string,
): Promise<void> {
  const byPerson = new Map<number, { recipient: string; status: string }[]>();
  for (const mark of marks)
    byPerson.set(mark.personId, [...(byPerson.get(mark.personId) ?? []), mark]);
  for (const [personId, personMarks] of byPerson) {
    const row = await findPersonInAccount(trx, accountId, personId);
    if (!row) continue;
    const before = stateFromRow(row);
    const emails = before.emails.map((e) => ({ ...e }));
    for (const { recipient, status } of personMarks) {
      const target = recipient
        ? emails.find((e) => normalEmail(e.value) === recipient)
        : (emails.find((e) => e.isPrimary) ?? emails[0]);
      if (target) target.status = status;
    }
    // savePerson emits peopleUpdated only when a status actually changed.
    await savePerson(trx, accountId, personId, before, { ...before, emails }, at);
  }
}

/**
 * Records a batch of email marketing events in the caller's transaction: all of them or, when any
 * is invalid, none (400 naming each bad event by index and field). Events whose recipient matches
 * no person the caller can see are skipped and reported. Fires emEventsOpened / emEventsClicked /
 * emEventsUnsubscribed and updates the email status of unsubscribes, spam reports and hard
 * bounces through savePerson (peopleUpdated); opens and clicks move the person's lastActivity
 * forward. POST /v1/emEvents and any built-in sender use it.
 */
export async function recordEmEvents(
  trx: Trx,
  actor: EmEventsActor,
  events: EmEventInput[],
  options: RecordOptions,
): Promise<RecordedEmEvents> {
  const { auth } = actor;
  const nowMs = options.now;
  const refs = await resolveReferences(trx, auth, events);
  const problems = events.flatMap((event, index) => problemsOf(event, index, refs));
  if (problems.length) {
    const bad = new Set(problems.map((p) => p.field.split('.')[1])).size;
    const listed = problems.slice(0, MAX_LISTED_ERRORS);
    const more =
      problems.length > listed.length
        ? ` (and ${problems.length - listed.length} more problems)`
        : '';
    throw badRequest(
      `${bad} of ${events.length} events are invalid; nothing was stored: ${listed
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}${more}`,
      listed,
    );
  }

  const now = isoSeconds(nowMs);
  const rows: NewEmEvent[] = [];
  const recipientsNotFound: string[] = [];
  for (const event of events) {
    const recipient = event.recipient?.trim() ?? '';
    const personId = event.personId ?? refs.byEmail.get(normalEmail(recipient));
    if (personId === undefined) {
      if (!recipientsNotFound.includes(recipient)) recipientsNotFound.push(recipient);
      continue;
    }
    rows.push({
      account_id: auth.accountId,
      campaign_id: event.campaignId,
      person_id: personId,
      user_id: event.userId ?? auth.userId,
      type: event.type,
      occurred_at: event.occurred === undefined ? now : isoTimestamp(event.occurred)!,
      recipient,
      url: event.url?.trim() ?? '',
      system: actor.system,
      created_at: now,
    });
  }
  const updatesPerson = (type: string) =>
    Object.hasOwn(EMAIL_STATUS_OF_TYPE, type) || ENGAGEMENT_TYPES.has(type as EmEventType);
  await lockPeople(
    trx,
    rows.filter((row) => updatesPerson(row.type)).map((row) => row.person_id),
    options.dialect,
  );
  const ids = await insertEmEvents(trx, rows, options.tally);

  const webhookIds = new Map<string, number[]>();
  const marks: { personId: number; recipient: string; status: string }[] = [];
  const lastEngaged = new Map<number, string>();
  rows.forEach((row, i) => {
    const type = row.type as EmEventType;
    const eventName = WEBHOOK_EVENT_OF_TYPE[type as keyof typeof WEBHOOK_EVENT_OF_TYPE];
    if (eventName) webhookIds.set(eventName, [...(webhookIds.get(eventName) ?? []), ids[i]]);
    const status = EMAIL_STATUS_OF_TYPE[type as keyof typeof EMAIL_STATUS_OF_TYPE];
    if (status)
      marks.push({ personId: row.person_id, recipient: normalEmail(row.recipient ?? ''), status });
    if (ENGAGEMENT_TYPES.has(type) && row.occurred_at > (lastEngaged.get(row.person_id) ?? ''))
      lastEngaged.set(row.person_id, row.occurred_at);
  });
  for (const [eventName, eventIds] of webhookIds) {
    for (const group of inGroups(eventIds, 100))
      await emit(
        trx,
        auth.accountId,
        eventName as (typeof WEBHOOK_EVENT_OF_TYPE)[keyof typeof WEBHOOK_EVENT_OF_TYPE],
        group,
        undefined,
        nowMs,
      );
  }
  await markEmailStatuses(trx, auth.accountId, marks, now);
  for (const [personId, at] of [...lastEngaged].sort(([a], [b]) => a - b))
    await touchLastActivity(trx, auth.accountId, personId, at);
  return { emEventIds: ids, recipientsNotFound };
}

/** POST /v1/emEvents: a batch recorded in a transaction of its own (see recordEmEvents). */
export function recordEmEventBatch(
  db: Db,
  actor: EmEventsActor,
  events: EmEventInput[],
  options: RecordOptions,
): Promise<RecordedEmEvents> {
  return db.transaction().execute((trx) => recordEmEvents(trx, actor, events, options));
}
