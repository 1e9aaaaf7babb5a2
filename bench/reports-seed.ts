// Seeds reports.bench.ts: people created over two years (five sources, twelve agents) and timeline
// records (calls, text messages, emails, notes; a third incoming) in the weeks after each person was
// created, plus a deal for one person in fifty. Set-based INSERT … SELECT over a number series.
// BENCH_REPORTS_SEED=triggers keeps the report triggers (migration 0411) on, so they fire for every
// row as they do for the application's writes (10M records: an hour or more per database on two
// cores); by default they are off while seeding and the counters are rebuilt from the records
// afterwards (rebuildAccountReportCounters, which the tests hold equal to the maintained counters).
import { sql } from 'kysely';
import type { AppContext } from '../src/platform/context.js';
import { rebuildAccountReportCounters } from '../src/reports/reports.rebuild.js';

export const SPAN_DAYS = 730;
/** The seeded data ends here: the bench's quarter is the 91 days before it. */
export const SEED_END = Date.parse('2026-06-30T12:00:00Z');
const TABLES = ['calls', 'text_messages', 'emails', 'notes'] as const;
const BATCH = 200_000;

/** `select i from <series of from..to-1>` on either database. */
function series(ctx: AppContext, from: number, to: number) {
  return ctx.dialect === 'sqlite'
    ? sql`(with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${to - 1})
        select i from s)`
    : sql`(select generate_series(${from}::bigint, ${to - 1}::bigint) as i)`;
}

/** The text timestamp `seconds` after the epoch, in the stored form. */
function iso(ctx: AppContext, seconds: ReturnType<typeof sql>) {
  return ctx.dialect === 'sqlite'
    ? sql`strftime('%Y-%m-%dT%H:%M:%SZ', ${seconds}, 'unixepoch')`
    : sql`to_char(to_timestamp(${seconds}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
}

export async function seedReports(
  ctx: AppContext,
  accountId: number,
  agents: number[],
  people: number,
  records: number,
): Promise<void> {
  if (process.env.BENCH_REPORTS_SEED === 'triggers')
    await seedRows(ctx, accountId, agents, people, records);
  else {
    await withoutReportTriggers(ctx, () => seedRows(ctx, accountId, agents, people, records));
    const began = performance.now();
    await rebuildAccountReportCounters(ctx.db, ctx.dialect, accountId);
    process.stderr.write(
      `  counters rebuilt in ${((performance.now() - began) / 1000).toFixed(0)} s\n`,
    );
  }
  await settle(ctx);
}

/** The report triggers' (name, table and, on SQLite, the statement that makes them). */
async function reportTriggers(ctx: AppContext) {
  const query =
    ctx.dialect === 'sqlite'
      ? sql<{ name: string; table: string; definition: string }>`select name, tbl_name as "table",
          sql as definition from sqlite_master where type = 'trigger' and name like 'report%'`
      : sql<{ name: string; table: string; definition: string }>`select tgname as name,
          tgrelid::regclass::text as "table", '' as definition from pg_trigger
          where not tgisinternal and tgname like 'report%'`;
  return (await query.execute(ctx.db)).rows;
}

/** Runs `seed` with the report triggers off (dropped on SQLite, disabled on PostgreSQL). */
async function withoutReportTriggers(ctx: AppContext, seed: () => Promise<void>) {
  const triggers = await reportTriggers(ctx);
  for (const t of triggers)
    await (
      ctx.dialect === 'sqlite'
        ? sql`drop trigger ${sql.ref(t.name)}`
        : sql`alter table ${sql.table(t.table)} disable trigger ${sql.ref(t.name)}`
    ).execute(ctx.db);
  try {
    await seed();
  } finally {
    for (const t of triggers)
      await (
        ctx.dialect === 'sqlite'
          ? sql.raw(t.definition)
          : sql`alter table ${sql.table(t.table)} enable trigger ${sql.ref(t.name)}`
      ).execute(ctx.db);
  }
}

async function seedRows(
  ctx: AppContext,
  accountId: number,
  agents: number[],
  people: number,
  records: number,
): Promise<void> {
  const start = Math.floor(SEED_END / 1000) - SPAN_DAYS * 86400;
  const step = Math.floor((SPAN_DAYS * 86400) / people);
  const agentOf = (i: ReturnType<typeof sql>) =>
    sql`(case ${sql.join(
      agents.map((id, k) => sql`when ${i} % ${agents.length} = ${k} then cast(${id} as integer)`),
      sql` `,
    )} end)`;
  for (let from = 0; from < people; from += BATCH) {
    const to = Math.min(people, from + BATCH);
    const created = iso(ctx, sql`${start} + s.i * ${step}`);
    await sql`insert into people (account_id, created_at, updated_at, created_via, name, source,
        assigned_user_id)
      select ${accountId}, ${created}, ${created}, 'API', 'Person ' || s.i,
        (case s.i % 5 when 0 then 'Zillow' when 1 then 'Website' when 2 then 'Realtor.com'
          when 3 then 'Open house' else 'Referral' end), ${agentOf(sql`s.i`)}
      from ${series(ctx, from, to)} s`.execute(ctx.db);
    process.stderr.write(`  people ${to}\n`);
  }
  const first = await ctx.db
    .selectFrom('people')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const firstId = Number(first.id);
  for (let from = 0; from < records; from += BATCH) {
    const to = Math.min(records, from + BATCH);
    for (const [k, table] of TABLES.entries()) {
      // Record r belongs to person (r * 7919) % people, some minutes to weeks after their creation.
      const person = sql`${firstId} + (s.i * 7919) % ${people}`;
      const at = iso(
        ctx,
        sql`${start} + ((s.i * 7919) % ${people}) * ${step} + (s.i % 997) * 1800`,
      );
      const user = agentOf(sql`s.i`);
      const rows = sql`from ${series(ctx, from, to)} s where s.i % 4 = ${k}`;
      if (table === 'notes')
        await sql`insert into notes (account_id, person_id, body, created_by_id, created_at, updated_at)
          select ${accountId}, ${person}, 'Note', ${user}, ${at}, ${at} ${rows}`.execute(ctx.db);
      else {
        const message = table === 'text_messages' ? sql`, message` : sql``;
        const text = table === 'text_messages' ? sql`, 'Hi'` : sql``;
        await sql`insert into ${sql.table(table)} (account_id, person_id, is_incoming, user_id,
            created_at, updated_at ${message})
          select ${accountId}, ${person}, case when s.i % 3 = 0 then 1 else 0 end, ${user}, ${at},
            ${at} ${text} ${rows}`.execute(ctx.db);
      }
    }
    process.stderr.write(`  records ${to}\n`);
  }
  await seedDeals(ctx, accountId, firstId, people);
}

/**
 * What autovacuum keeps a live database like: seeding updates the counter rows millions of times
 * in minutes, and this machine's PostgreSQL runs without autovacuum, so each counter row would
 * drag hundreds of dead versions (a quarter's 1,080 activity rows read in 370 ms instead of 2).
 */
async function settle(ctx: AppContext) {
  if (ctx.dialect !== 'postgres') return void (await sql`analyze`.execute(ctx.db));
  await sql`vacuum full report_activity_days, report_lead_days, report_contact_days`.execute(
    ctx.db,
  );
  await sql`vacuum analyze`.execute(ctx.db);
}

async function seedDeals(ctx: AppContext, accountId: number, firstId: number, people: number) {
  const now = new Date(SEED_END).toISOString().slice(0, 19) + 'Z';
  const pipeline = await ctx.db
    .insertInto('pipelines')
    .values({
      account_id: accountId,
      name: 'Buyers',
      description: '',
      order_weight: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const stages: number[] = [];
  for (const [k, name] of ['Qualified', 'Offer', 'Closed'].entries())
    stages.push(
      (
        await ctx.db
          .insertInto('pipeline_stages')
          .values({
            account_id: accountId,
            pipeline_id: pipeline.id,
            name,
            description: '',
            color: '',
            order_weight: k,
            closed_stage: name === 'Closed' ? 1 : 0,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const deals = Math.floor(people / 50);
  await sql`insert into deals (account_id, name, pipeline_id, stage_id, status, price,
      entered_stage_at, created_at, updated_at)
    select ${accountId}, 'Deal ' || s.i, cast(${pipeline.id} as integer),
      cast(case s.i % 3 when 0 then ${stages[0]} when 1 then ${stages[1]} else ${stages[2]} end as integer),
      'Active', 100000 + s.i % 500 * 1000, ${now}, ${now}, ${now}
    from ${series(ctx, 0, deals)} s`.execute(ctx.db);
  await sql`insert into deal_people (account_id, deal_id, person_id)
    select ${accountId}, d.id, ${firstId} + (d.id % ${people}) from deals d
    where d.account_id = ${accountId}`.execute(ctx.db);
}
