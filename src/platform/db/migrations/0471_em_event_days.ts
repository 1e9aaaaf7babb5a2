import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';
import { withoutRowid } from './0470_report_lead_days.js';

/**
 * Email marketing events per (account, UTC day of occurrence, campaign, sender, type), for the
 * campaigns report (issue 30): a period's sends, opens, clicks, unsubscribes and bounces per
 * campaign and per day are a read of the days' counter rows, never of the events. The application
 * adds to them where it counts the campaign statistics (emEvents.counts.ts), in the transaction
 * that inserts the events; events go only by cascades (a person's deletion: a campaign's or an
 * account's cascades to these rows too), which a delete trigger takes out. user_id 0: no sender.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('em_event_days')
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'integer', (c) =>
      c.notNull().references('em_campaigns.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('events', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('em_event_days_pk', [
      'account_id',
      'day',
      'campaign_id',
      'user_id',
      'type',
    ])
    .modifyEnd(withoutRowid(dialect))
    .execute();
  await sql`create index em_event_days_campaign on em_event_days (campaign_id)`.execute(db);
  await rebuildEmEventDays(db);
  if (dialect === 'sqlite')
    await sql`create trigger em_event_days_uncount after delete on em_events begin
      update em_event_days set events = events - 1
      where account_id = old.account_id and day = substr(old.occurred_at, 1, 10)
        and campaign_id = old.campaign_id and user_id = coalesce(old.user_id, 0)
        and type = old.type;
    end`.execute(db);
  else {
    // Once per deleting statement, as em_events_uncount (0340).
    await sql`create function hearth_em_event_days_uncount() returns trigger language plpgsql as $$
      begin
        update em_event_days d set events = d.events - g.events
        from (select account_id, substr(occurred_at, 1, 10) as day, campaign_id,
                coalesce(user_id, 0) as user_id, type, count(*) as events
              from gone group by 1, 2, 3, 4, 5) g
        where d.account_id = g.account_id and d.day = g.day and d.campaign_id = g.campaign_id
          and d.user_id = g.user_id and d.type = g.type;
        return null;
      end $$`.execute(db);
    await sql`create trigger em_event_days_uncount after delete on em_events
      referencing old table as gone for each statement
      execute function hearth_em_event_days_uncount()`.execute(db);
  }
}

/** Recounts the day counters from the events (of one account when given). */
export async function rebuildEmEventDays(db: AnyDb, accountId?: number): Promise<void> {
  const only = (alias: string) =>
    accountId === undefined ? sql`` : sql`and ${sql.ref(`${alias}.account_id`)} = ${accountId}`;
  await sql`delete from em_event_days where true ${only('em_event_days')}`.execute(db);
  await sql`insert into em_event_days (account_id, day, campaign_id, user_id, type, events)
    select e.account_id, substr(e.occurred_at, 1, 10), e.campaign_id, coalesce(e.user_id, 0),
      e.type, count(*)
    from em_events e where true ${only('e')}
    group by e.account_id, substr(e.occurred_at, 1, 10), e.campaign_id, coalesce(e.user_id, 0),
      e.type`.execute(db);
}
