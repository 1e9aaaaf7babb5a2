import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/**
 * Counters of email marketing events (issue 19, step 5), so that a campaign's statistics are a
 * read of a few rows instead of two aggregates over every event of the campaign (a million index
 * entries per request at a million events, on both databases):
 * - em_event_counts: (campaign_id, type) → events, and for open and click the number of people
 *   with at least one such event (unique opens and clicks);
 * - em_event_firsts: one row per (campaign, type, person) for open and click, whose insert tells
 *   whether an event is the person's first of its type in the campaign.
 * The application writes both in the transaction that inserts the events (emEvents.counts.ts).
 * Events are deleted only by cascades (a person, a campaign or an account deleted), which the
 * application does not see: a trigger takes those events out of the counts, and removes the
 * person's first-seen rows (no foreign key to people on em_event_firsts, so that the trigger
 * still finds them when it runs). Existing events are counted here.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('em_event_counts')
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('campaign_id', 'integer', (c) =>
      c.notNull().references('em_campaigns.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('events', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('people', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('em_event_counts_pk', ['campaign_id', 'type'])
    .execute();
  await sql`create index em_event_counts_account on em_event_counts (account_id, campaign_id)`.execute(
    db,
  );
  await db.schema
    .createTable('em_event_firsts')
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('campaign_id', 'integer', (c) =>
      c.notNull().references('em_campaigns.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('em_event_firsts_pk', ['campaign_id', 'type', 'person_id'])
    .execute();

  await countExistingEmEvents(db);
  if (dialect === 'sqlite') await sqliteTrigger(db);
  else await postgresTrigger(db);
}

/** Counts the events stored so far (also used by the bench after it bulk-loads events). */
export async function countExistingEmEvents(db: AnyDb): Promise<void> {
  await sql`insert into em_event_counts (account_id, campaign_id, type, events, people)
    select account_id, campaign_id, type, count(*), 0 from em_events
    group by account_id, campaign_id, type`.execute(db);
  await sql`insert into em_event_firsts (account_id, campaign_id, type, person_id)
    select distinct account_id, campaign_id, type, person_id from em_events
    where type in ('open', 'click')`.execute(db);
  await sql`update em_event_counts set people = (select count(*) from em_event_firsts f
      where f.campaign_id = em_event_counts.campaign_id and f.type = em_event_counts.type)
    where type in ('open', 'click')`.execute(db);
}

/** The person has no event of that type left in the campaign (the deleted row is gone already). */
const noneLeft = (row: string) =>
  sql.raw(`not exists (select 1 from em_events e
  where e.account_id = ${row}.account_id and e.campaign_id = ${row}.campaign_id
    and e.type = ${row}.type and e.person_id = ${row}.person_id)`);

async function sqliteTrigger(db: AnyDb): Promise<void> {
  await sql`create trigger em_events_uncount after delete on em_events begin
    update em_event_counts set events = events - 1,
      people = people - (case when ${noneLeft('old')} and exists (select 1 from em_event_firsts f
        where f.campaign_id = old.campaign_id and f.type = old.type and f.person_id = old.person_id)
        then 1 else 0 end)
    where campaign_id = old.campaign_id and type = old.type;
    delete from em_event_firsts
    where campaign_id = old.campaign_id and type = old.type and person_id = old.person_id
      and ${noneLeft('old')};
  end`.execute(db);
}

/**
 * Once per deleting statement, over its deleted rows. The counters are locked first in
 * (campaign_id, type) order, byte order for the type as in emEvents.counts.ts: the order every
 * writer takes them in, so a person's deletion cannot
 * deadlock with a batch of events. An UPDATE, never an insert: when the account itself is being
 * deleted its counters may be gone already.
 */
async function postgresTrigger(db: AnyDb): Promise<void> {
  await sql`create function hearth_em_events_uncount() returns trigger language plpgsql as $$
    begin
      perform 1 from em_event_counts c
      where (c.campaign_id, c.type) in (select distinct campaign_id, type from gone)
      order by c.campaign_id, c.type collate "C" for update;
      with lost_firsts as (
        delete from em_event_firsts f
        using (select distinct account_id, campaign_id, type, person_id from gone
               where type in ('open', 'click')) g
        where f.campaign_id = g.campaign_id and f.type = g.type and f.person_id = g.person_id
          and ${noneLeft('g')}
        returning f.campaign_id, f.type
      ), lost as (
        select campaign_id, type, count(*) as events, 0 as people from gone
        group by campaign_id, type
        union all
        select campaign_id, type, 0, count(*) from lost_firsts group by campaign_id, type
      )
      update em_event_counts c set events = c.events - l.events, people = c.people - l.people
      from (select campaign_id, type, sum(events) as events, sum(people) as people
            from lost group by campaign_id, type) l
      where c.campaign_id = l.campaign_id and c.type = l.type;
      return null;
    end $$`.execute(db);
  await sql`create trigger em_events_uncount after delete on em_events
    referencing old table as gone for each statement
    execute function hearth_em_events_uncount()`.execute(db);
}
