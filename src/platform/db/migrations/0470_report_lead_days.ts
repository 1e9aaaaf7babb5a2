import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/**
 * SQLite keeps a counter table in its key's order (no rowid table beside the key's index), so a
 * period's rows are one range of adjacent pages: a third of the time of a rowid table's lookups.
 */
export const withoutRowid = (dialect: DialectName) =>
  dialect === 'sqlite' ? sql`without rowid` : sql``;
import { create, peopleTriggers, type RowTrigger } from './0411_report_triggers.js';

/**
 * Daily lead counters (issue 30), so that a lead report over a quarter reads a few thousand
 * counter rows instead of one report_leads row per lead (125,000 a quarter at a million people):
 * - report_lead_days: (account, UTC day of created, agent, lender, source) → leads, the contacted
 *   ones and the ones invited to an appointment (0 stands for no agent or lender: keys are not null);
 * - report_contact_days: (account, day, agent, bucket of contact_seconds) → contacted leads, so a
 *   median finds the bucket holding it from the counters and reads only that bucket's leads of the
 *   period (report_leads_contact_bucket, an index on the same bucket expression).
 * A person's insert adds its lead in report_people_ai (0411, extended here: no second trigger on
 * the hot path); what changes a report_leads row afterwards (first contact, a move to another
 * agent or source, an invitation, a deletion) moves it by a trigger on report_leads itself.
 */

/**
 * A bucket of seconds, in their order: 100 × digits + the two leading digits / 5 (1000–1499 s →
 * 402, 1500–1999 → 403): 18 buckets a decade, on both databases without math functions.
 */
export const contactBucket = (x: string) =>
  `(length(cast(${x} as text)) * 100 + cast(substr(cast(${x} as text), 1, 2) as integer) / 5)`;

/** The counter's key of a report_leads row, or (`people`) of a people row. */
const keyOf = (x: string, people = false) =>
  `${x}.account_id, substr(${x}.created_at, 1, 10),
    coalesce(${x}.${people ? 'assigned_user_id' : 'user_id'}, 0),
    coalesce(${x}.${people ? 'assigned_lender_id' : 'lender_id'}, 0), ${x}.source`;
const contactedOf = (x: string) => `case when ${x}.contact_seconds is null then 0 else 1 end`;
const invitedOf = (x: string) => `case when ${x}.invitations > 0 then 1 else 0 end`;

const addLead = (x: string, contacted: string, invited: string, people = false) =>
  `insert into report_lead_days (account_id, day, user_id, lender_id, source, leads, contacted,
      invited)
    values (${keyOf(x, people)}, 1, ${contacted}, ${invited})
    on conflict (account_id, day, user_id, lender_id, source) do update set
      leads = report_lead_days.leads + 1,
      contacted = report_lead_days.contacted + excluded.contacted,
      invited = report_lead_days.invited + excluded.invited`;

const takeLead = (x: string) =>
  `update report_lead_days set leads = leads - 1, contacted = contacted - ${contactedOf(x)},
      invited = invited - ${invitedOf(x)}
    where account_id = ${x}.account_id and day = substr(${x}.created_at, 1, 10)
      and user_id = coalesce(${x}.user_id, 0) and lender_id = coalesce(${x}.lender_id, 0)
      and source = ${x}.source`;

const contactCounted = (x: string) =>
  `${x}.contact_seconds is not null and ${x}.user_id is not null`;

const addContact = (x: string) =>
  `insert into report_contact_days (account_id, day, user_id, bucket, n)
    select ${x}.account_id, substr(${x}.created_at, 1, 10), ${x}.user_id,
      ${contactBucket(`${x}.contact_seconds`)}, 1
    where ${contactCounted(x)}
    on conflict (account_id, day, user_id, bucket) do update set n = report_contact_days.n + 1`;

const takeContact = (x: string) =>
  `update report_contact_days set n = n - 1
    where ${contactCounted(x)} and account_id = ${x}.account_id
      and day = substr(${x}.created_at, 1, 10) and user_id = ${x}.user_id
      and bucket = ${contactBucket(`${x}.contact_seconds`)}`;

function leadDayTriggers(dialect: DialectName): RowTrigger[] {
  const differs = dialect === 'sqlite' ? 'is not' : 'is distinct from';
  const moved = ['created_at', 'user_id', 'lender_id', 'source', 'contact_seconds']
    .map((c) => `old.${c} ${differs} new.${c}`)
    .join(' or ');
  const people = peopleTriggers(dialect).find((t) => t.name === 'report_people_ai')!;
  return [
    // The person's new lead: no contact and no invitation yet.
    { ...people, statements: [...people.statements, addLead('new', '0', '0', true)] },
    {
      name: 'report_leads_days_au',
      table: 'report_leads',
      event: 'update of created_at, user_id, lender_id, source, contact_seconds, invitations',
      when: `${moved} or (old.invitations > 0) <> (new.invitations > 0)`,
      statements: [
        takeLead('old'),
        addLead('new', contactedOf('new'), invitedOf('new')),
        takeContact('old'),
        addContact('new'),
      ],
    },
    {
      name: 'report_leads_days_ad',
      table: 'report_leads',
      event: 'delete',
      statements: [takeLead('old'), takeContact('old')],
    },
  ];
}

/** Recomputes both daily counters from report_leads (of one account when given). */
export async function rebuildLeadDays(db: AnyDb, accountId?: number): Promise<void> {
  const only = (alias: string) =>
    accountId === undefined ? sql`` : sql`and ${sql.ref(`${alias}.account_id`)} = ${accountId}`;
  await sql`delete from report_lead_days where true ${only('report_lead_days')}`.execute(db);
  await sql`delete from report_contact_days where true ${only('report_contact_days')}`.execute(db);
  await sql`insert into report_lead_days (account_id, day, user_id, lender_id, source, leads,
      contacted, invited)
    select ${sql.raw(keyOf('rl'))}, count(*), count(rl.contact_seconds),
      sum(${sql.raw(invitedOf('rl'))})
    from report_leads rl where true ${only('rl')}
    group by ${sql.raw(keyOf('rl'))}`.execute(db);
  const bucket = sql.raw(contactBucket('rl.contact_seconds'));
  await sql`insert into report_contact_days (account_id, day, user_id, bucket, n)
    select rl.account_id, substr(rl.created_at, 1, 10), rl.user_id, ${bucket}, count(*)
    from report_leads rl where ${sql.raw(contactCounted('rl'))} ${only('rl')}
    group by rl.account_id, substr(rl.created_at, 1, 10), rl.user_id, ${bucket}`.execute(db);
}

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('report_lead_days')
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('lender_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('leads', 'bigint', (c) => c.notNull())
    .addColumn('contacted', 'bigint', (c) => c.notNull())
    .addColumn('invited', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_lead_days_pk', [
      'account_id',
      'day',
      'user_id',
      'lender_id',
      'source',
    ])
    .modifyEnd(withoutRowid(dialect))
    .execute();
  await db.schema
    .createTable('report_contact_days')
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_contact_days_pk', ['account_id', 'day', 'user_id', 'bucket'])
    .modifyEnd(withoutRowid(dialect))
    .execute();
  // The leads of one agent's median bucket in a period: one range of this index.
  await sql`create index report_leads_contact_bucket on report_leads (account_id, user_id,
    ${sql.raw(contactBucket('contact_seconds'))}, created_at, contact_seconds)`.execute(db);
  // The few leads a deal holds, for leadSources' deals without the period's other leads.
  await sql`create index report_leads_deals on report_leads (account_id, created_at, source,
    user_id, lender_id, person_id) where deal_links > 0`.execute(db);
  const [people, ...triggers] = leadDayTriggers(dialect);
  if (dialect === 'sqlite') await sql`drop trigger report_people_ai`.execute(db);
  else await sql`drop trigger report_people_ai on people`.execute(db);
  if (dialect === 'postgres') await sql`drop function hearth_report_people_ai()`.execute(db);
  for (const t of [people, ...triggers]) await create(db, dialect, t);
  await rebuildLeadDays(db);
}
