import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/**
 * Counters of email marketing events (issue 19, step 5), so that statistics are a read of a few
 * rows instead of aggregates over every event (a million index entries per request at a million
 * events in a campaign, on both databases):
 * - em_event_counts: (campaign, type) → events, and people with at least one such event (unique
 *   opens and clicks): what Owner and Admin, who see every event, read;
 * - em_event_person_counts: (campaign, person, type) → events: what Agents and Lenders read for the
 *   people they see (a row per person and type instead of every event), and whose insert tells
 *   whether an event is the person's first of its type in the campaign.
 * The application writes both in the transaction that inserts the events (emEvents.counts.ts).
 * Events are deleted only by cascades (a person, a campaign or an account deleted), which the
 * application does not see: a trigger takes those events out of both (no foreign key to people on
 * em_event_person_counts, so that the trigger still finds the person's rows when it runs).
 * Existing events are counted here.
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
    .createTable('em_event_person_counts')
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('campaign_id', 'integer', (c) =>
      c.notNull().references('em_campaigns.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('em_event_person_counts_pk', ['campaign_id', 'person_id', 'type'])
    .execute();
  await sql`create index em_event_person_counts_account
    on em_event_person_counts (account_id, person_id)`.execute(db);

  await countExistingEmEvents(db);
  if (dialect === 'sqlite') await sqliteTrigger(db);
  else await postgresTrigger(db);
}

/** Counts the events stored so far (also used by the bench after it bulk-loads events). */
export async function countExistingEmEvents(db: AnyDb): Promise<void> {
  await sql`insert into em_event_person_counts (account_id, campaign_id, person_id, type, events)
    select account_id, campaign_id, person_id, type, count(*) from em_events
    group by account_id, campaign_id, person_id, type`.execute(db);
  await sql`insert into em_event_counts (account_id, campaign_id, type, events, people)
    select account_id, campaign_id, type, sum(events), count(*) from em_event_person_counts
    group by account_id, campaign_id, type`.execute(db);
}

async function sqliteTrigger(db: AnyDb): Promise<void> {
  await sql`create trigger em_events_uncount after delete on em_events begin
    update em_event_person_counts set events = events - 1
    where campaign_id = old.campaign_id and person_id = old.person_id and type = old.type;
    update em_event_counts set events = events - 1,
      people = people - (select count(*) from em_event_person_counts pc
        where pc.campaign_id = old.campaign_id and pc.person_id = old.person_id
          and pc.type = old.type and pc.events <= 0)
    where campaign_id = old.campaign_id and type = old.type;
    delete from em_event_person_counts
    where campaign_id = old.campaign_id and person_id = old.person_id and type = old.type
      and events <= 0;
  end`.execute(db);
}

/**
 * Once per deleting statement, over its deleted rows. A person's rows are guarded by the person
 * (a writer of their events holds a share lock on them, which a deletion waits for); the counters
 * are locked in (campaign_id, type) order, byte order for the type as in emEvents.counts.ts: the
 * order every writer takes them in, so a deletion cannot deadlock with a batch of events. An
 * UPDATE, never an insert: when the account itself is being deleted its counters may be gone.
 */
async function postgresTrigger(db: AnyDb): Promise<void> {
  await sql`create function hearth_em_events_uncount() returns trigger language plpgsql as $$
    begin
      update em_event_person_counts pc set events = pc.events - g.events
      from (select campaign_id, person_id, type, count(*) as events from gone
            group by campaign_id, person_id, type) g
      where pc.campaign_id = g.campaign_id and pc.person_id = g.person_id and pc.type = g.type;
      perform 1 from em_event_counts c
      where (c.campaign_id, c.type) in (select distinct campaign_id, type from gone)
      order by c.campaign_id, c.type collate "C" for update;
      with emptied as (
        delete from em_event_person_counts pc
        where (pc.campaign_id, pc.person_id) in (select distinct campaign_id, person_id from gone)
          and pc.events <= 0
        returning pc.campaign_id, pc.type
      ), lost as (
        select campaign_id, type, count(*) as events, 0 as people from gone
        group by campaign_id, type
        union all
        select campaign_id, type, 0, count(*) from emptied group by campaign_id, type
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
