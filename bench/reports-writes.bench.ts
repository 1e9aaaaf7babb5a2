// `npm run bench -- reports-writes` (issue 30): what the daily lead counters (migration 0470) add
// to the writes that maintain them, in process on a migrated database: a person's insert (every
// POST /v1/people, every new lead of POST /v1/events) and the first outgoing call to them (the
// update of report_leads that moves the counters). Rounds alternate between the triggers as
// migrated and 0411's alone (0470's dropped), each write its own transaction as a request's is;
// µs per write, medians of the rounds. BENCH_REPORTS_DB (sqlite,postgres) chooses the databases.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/platform/db/connect.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import type { AnyDb, DialectName } from '../src/platform/db/dialect.js';
import { create, peopleTriggers } from '../src/platform/db/migrations/0411_report_triggers.js';
import { up as leadDays } from '../src/platform/db/migrations/0470_report_lead_days.js';
import { createAccount } from '../src/accounts/accounts.service.js';
import { type BenchHarness, type BenchRow, median, scratchPostgres } from './lib.js';

const DATABASES = (process.env.BENCH_REPORTS_DB ?? 'sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WRITES = Number(process.env.BENCH_REPORTS_WRITES ?? 1000);

/** Back to 0411's triggers: 0470's people trigger replaced, its report_leads triggers dropped. */
async function withoutLeadDays(db: AnyDb, dialect: DialectName) {
  const drop = async (name: string, table: string) => {
    if (dialect === 'sqlite') await sql.raw(`drop trigger ${name}`).execute(db);
    else {
      await sql.raw(`drop trigger ${name} on ${table}`).execute(db);
      await sql.raw(`drop function hearth_${name}()`).execute(db);
    }
  };
  await drop('report_people_ai', 'people');
  await drop('report_leads_days_au', 'report_leads');
  await drop('report_leads_days_ad', 'report_leads');
  await create(
    db,
    dialect,
    peopleTriggers(dialect).find((t) => t.name === 'report_people_ai')!,
  );
}

async function withLeadDays(db: AnyDb, dialect: DialectName) {
  await sql`drop table report_lead_days`.execute(db);
  await sql`drop table report_contact_days`.execute(db);
  await sql`drop index report_leads_contact_bucket`.execute(db);
  await sql`drop index report_leads_deals`.execute(db);
  await leadDays(db, dialect);
}

async function round(db: AnyDb, accountId: number, userId: number, tag: string) {
  let people = 0;
  let calls = 0;
  for (let i = 0; i < WRITES; i++) {
    const now = new Date().toISOString().slice(0, 19) + 'Z';
    let began = performance.now();
    const person = await db.transaction().execute((trx) =>
      trx
        .insertInto('people')
        .values({
          account_id: accountId,
          created_at: now,
          updated_at: now,
          created_via: 'API',
          name: `${tag} ${i}`,
          source: ['Zillow', 'Website', 'Referral'][i % 3],
          assigned_user_id: userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    people += performance.now() - began;
    began = performance.now();
    await db.transaction().execute((trx) =>
      trx
        .insertInto('calls')
        .values({
          account_id: accountId,
          person_id: person.id,
          is_incoming: 0,
          user_id: userId,
          created_at: now,
          updated_at: now,
        } as never)
        .execute(),
    );
    calls += performance.now() - began;
  }
  return { person: (people / WRITES) * 1000, call: (calls / WRITES) * 1000 };
}

async function measure(database: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-bench-writes-'));
  const scratch =
    database === 'postgres'
      ? await scratchPostgres(PG_ADMIN_URL, `hearth_bench_writes_${process.pid}`)
      : null;
  const { db, dialect } = openDatabase(scratch?.url ?? `sqlite:${path.join(dir, 'hearth.db')}`);
  try {
    await migrateToLatest(db, dialect);
    const { account, user } = await createAccount(db, {
      name: 'Bench',
      ownerName: 'Owner',
      ownerEmail: 'owner@bench.test',
    });
    await round(db, account.id, user.id, 'warm-up');
    const results: Record<'with' | 'without', { person: number; call: number }[]> = {
      with: [],
      without: [],
    };
    for (let r = 0; r < ROUNDS; r++) {
      results.with.push(await round(db, account.id, user.id, `with ${r}`));
      await withoutLeadDays(db, dialect);
      results.without.push(await round(db, account.id, user.id, `without ${r}`));
      await withLeadDays(db, dialect);
    }
    const m = (k: 'with' | 'without', w: 'person' | 'call') => median(results[k].map((x) => x[w]));
    return { label: dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL', m };
  } finally {
    await db.destroy();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function reportsWritesBench(_h: BenchHarness): Promise<BenchRow[]> {
  console.log('| write (own transaction), µs median of rounds | 0411 only | with 0470 | added |');
  console.log('|---|---|---|---|');
  for (const database of DATABASES) {
    const { label, m } = await measure(database);
    for (const [w, name] of [
      ['person', 'insert a person'],
      ['call', 'first outgoing call'],
    ] as const) {
      const before = m('without', w);
      const after = m('with', w);
      console.log(
        `| ${label}: ${name} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${(after - before).toFixed(0)} (${((after / before - 1) * 100).toFixed(0)} %) |`,
      );
    }
  }
  return [];
}
