import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/**
 * Counters behind the team reports (issue 30), so that a report over a quarter reads a few
 * thousand counter rows and one index range of people, never the timeline:
 * - report_activity_days: (account, UTC day, user, kind) → records: calls, text messages and emails
 *   by their userId, notes and appointments by their creator, tasks completed by their assignee on
 *   the day of completion;
 * - report_leads: a narrow copy of each person's created, agent, lender and source with what the
 *   lead reports ask of them: the first outgoing call, text or email at or after the person was
 *   created, how many appointments invite them and how many deals hold them.
 * Triggers (0411) keep both in the transaction of every write, whichever code path makes it.
 * The index ranges by created keep edges of a period that are not whole UTC days exact.
 */
export const ACTIVITY_SOURCES = [
  { kind: 'call', table: 'calls', user: 'user_id', at: 'created_at', when: 'true' },
  { kind: 'textMessage', table: 'text_messages', user: 'user_id', at: 'created_at', when: 'true' },
  { kind: 'email', table: 'emails', user: 'user_id', at: 'created_at', when: 'true' },
  { kind: 'note', table: 'notes', user: 'created_by_id', at: 'created_at', when: 'true' },
  {
    kind: 'appointment',
    table: 'appointments',
    user: 'created_by_id',
    at: 'created_at',
    when: 'true',
  },
  {
    kind: 'taskCompleted',
    table: 'tasks',
    user: 'assigned_user_id',
    at: 'completed_at',
    when: 'X.is_completed = 1',
  },
] as const;

export type ActivityKind = (typeof ACTIVITY_SOURCES)[number]['kind'];

/** The tables whose outgoing records (is_incoming 0) contact a person. */
export const CONTACT_TABLES = ['calls', 'text_messages', 'emails'] as const;

/** The earliest outgoing record of the person `leads` row, at or after they were created. */
export function firstContactOf(leads: string): string {
  const parts = CONTACT_TABLES.map(
    (t) => `select created_at from ${t} where account_id = ${leads}.account_id
      and person_id = ${leads}.person_id and is_incoming = 0`,
  );
  return `(select min(fc.created_at) from (${parts.join(' union all ')}) fc
    where fc.created_at >= ${leads}.created_at)`;
}

/**
 * `report_leads.contact_seconds` from its row's first_contact_at and created_at (kept as a number
 * so that a median reads integers from the index instead of parsing two timestamps a row).
 */
export function contactSecondsOf(dialect: DialectName): string {
  return dialect === 'sqlite'
    ? `strftime('%s', first_contact_at) - strftime('%s', created_at)`
    : `(extract(epoch from first_contact_at::timestamptz)
        - extract(epoch from created_at::timestamptz))::bigint`;
}

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('report_activity_days')
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_activity_days_pk', ['account_id', 'day', 'user_id', 'kind'])
    .execute();
  await db.schema
    .createTable('report_leads')
    .addColumn('person_id', 'integer', (c) =>
      c.primaryKey().references('people.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('lender_id', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('first_contact_at', 'text')
    .addColumn('contact_seconds', 'bigint')
    .addColumn('invitations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deal_links', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Covering: a period's leads are one index range, whatever the report groups them by.
  await sql`create index report_leads_created on report_leads (account_id, created_at,
    user_id, lender_id, source, contact_seconds, invitations, deal_links, person_id)`.execute(db);
  for (const s of ACTIVITY_SOURCES)
    await sql`create index ${sql.ref(`report_${s.table}_at`)}
      on ${sql.table(s.table)} (account_id, ${sql.ref(s.at)}, ${sql.ref(s.user)})`.execute(db);
  await rebuildReportCounters(db, dialect);
}

/**
 * Recomputes both counters from the records themselves (of one account when given): what the
 * migration does for the data stored so far, and what the tests compare the maintained ones with.
 * Run it in a transaction (src/reports/reports.rebuild.ts).
 */
export async function rebuildReportCounters(
  db: AnyDb,
  dialect: DialectName,
  accountId?: number,
): Promise<void> {
  const only = (alias: string) =>
    accountId === undefined ? sql`` : sql`and ${sql.ref(`${alias}.account_id`)} = ${accountId}`;
  await sql`delete from report_activity_days where true ${only('report_activity_days')}`.execute(
    db,
  );
  for (const s of ACTIVITY_SOURCES) {
    const when = s.when.replaceAll('X.', 'r.');
    await sql`insert into report_activity_days (account_id, day, user_id, kind, n)
      select r.account_id, substr(${sql.ref(`r.${s.at}`)}, 1, 10), ${sql.ref(`r.${s.user}`)},
        ${s.kind}, count(*)
      from ${sql.table(s.table)} r
      where ${sql.ref(`r.${s.user}`)} is not null and ${sql.ref(`r.${s.at}`)} is not null
        and ${sql.raw(when)} ${only('r')}
      group by r.account_id, substr(${sql.ref(`r.${s.at}`)}, 1, 10), ${sql.ref(`r.${s.user}`)}`.execute(
      db,
    );
  }
  await sql`delete from report_leads where true ${only('report_leads')}`.execute(db);
  await sql`insert into report_leads (person_id, account_id, created_at, user_id, lender_id, source)
    select p.id, p.account_id, p.created_at, p.assigned_user_id, p.assigned_lender_id, p.source
    from people p where true ${only('p')}`.execute(db);
  await sql`update report_leads set first_contact_at = ${sql.raw(firstContactOf('report_leads'))},
      invitations = (select count(*) from appointment_invitees ai
        where ai.account_id = report_leads.account_id and ai.person_id = report_leads.person_id),
      deal_links = (select count(*) from deal_people dp where dp.person_id = report_leads.person_id)
    where true ${only('report_leads')}`.execute(db);
  await sql`update report_leads set contact_seconds = ${sql.raw(contactSecondsOf(dialect))}
    where first_contact_at is not null ${only('report_leads')}`.execute(db);
}
