// Seeds one email-marketing campaign for emstats.bench.ts: people (a twelfth of them assigned to
// each of 12 agents) and about ten events a person, as a weekly newsletter sent 7 times gives:
// a `delivered` per send (a few `dropped` instead), a quarter of the deliveries opened (1-3 opens),
// 5 % clicked (1-2 clicks), and a few bounces, unsubscribes and spam reports.
// SQLite: plain inserts in one transaction; PostgreSQL: COPY (pg-copy.ts).
import { sql } from 'kysely';
import pg from 'pg';
import type { AppContext } from '../src/platform/context.js';
import { copyFrom, copyValue } from './pg-copy.js';
import { countExistingEmEvents } from '../src/platform/db/migrations/0340_em_event_counts.js';

export const SENDS_PER_PERSON = 7;
/** Events a person gets on average (measured over the generator below). */
export const EVENTS_PER_PERSON = 11.4;

/** A small deterministic generator, so that every run seeds the same campaign. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The events of one person: [type, day offset] pairs. */
export function eventsOfPerson(rnd: () => number): [string, number][] {
  const out: [string, number][] = [];
  for (let send = 0; send < SENDS_PER_PERSON; send++) {
    const day = send * 7;
    const r = rnd();
    if (r < 0.005) {
      out.push(['dropped', day]);
      continue;
    }
    if (r < 0.015) {
      out.push([r < 0.012 ? 'soft-bounce' : 'hard-bounce', day]);
      continue;
    }
    out.push(['delivered', day]);
    if (rnd() < 0.25) {
      const opens = 1 + Math.floor(rnd() * 3) + (rnd() < 0.3 ? 1 : 0);
      for (let k = 0; k < opens; k++) out.push(['open', day + k]);
      if (rnd() < 0.2) {
        const clicks = 1 + (rnd() < 0.3 ? 1 : 0);
        for (let k = 0; k < clicks; k++) out.push(['click', day + k]);
      }
    }
    const u = rnd();
    if (u < 0.003) out.push(['unsubscribe', day + 1]);
    else if (u < 0.0035) out.push(['spamreport', day + 1]);
  }
  return out;
}

const EVENT_COLUMNS = [
  'account_id',
  'campaign_id',
  'person_id',
  'user_id',
  'type',
  'occurred_at',
  'recipient',
  'url',
  'system',
  'created_at',
] as const;

export interface EmSeed {
  campaignId: number;
  /** a few of the seeded people, for events posted while measuring */
  somePeople: number[];
  events: number;
  seconds: number;
}

async function seedPeople(
  ctx: AppContext,
  accountId: number,
  count: number,
  agentIds: number[],
): Promise<number[]> {
  const stage = await ctx.db
    .selectFrom('stages')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', '=', 'Lead')
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const ids: number[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + 500); i++)
        rows.push({
          account_id: accountId,
          created_at: at,
          updated_at: at,
          created_via: 'Import',
          name: `Reader ${i}`,
          first_name: 'Reader',
          last_name: String(i),
          stage_id: stage.id,
          source: 'bench.test',
          source_url: '',
          background: '',
          contacted: 0,
          assigned_user_id: agentIds[i % agentIds.length],
          addresses: '[]',
          tags: '[]',
          collaborators: '[]',
          custom: '{}',
          emails: JSON.stringify([
            { value: `reader${i}@bench.test`, type: 'home', status: 'Valid', isPrimary: true },
          ]),
          phones: '[]',
        });
      const inserted = await trx.insertInto('people').values(rows).returning('id').execute();
      ids.push(...inserted.map((r) => r.id).sort((a, b) => a - b));
    }
  });
  return ids;
}

/** Seeds `people` people and their events of one new campaign; returns the campaign. */
export async function seedEmCampaign(
  ctx: AppContext,
  accountId: number,
  ownerId: number,
  people: number,
  agentIds: number[],
  databaseUrl: string,
): Promise<EmSeed> {
  const began = performance.now();
  const personIds = await seedPeople(ctx, accountId, people, agentIds);
  const at = '2026-01-01T00:00:00Z';
  const campaign = await ctx.db
    .insertInto('em_campaigns')
    .values({
      account_id: accountId,
      origin: 'bench',
      origin_id: 'newsletter',
      name: 'Newsletter',
      subject: 'News',
      body_html: '<p>News</p>',
      created_by_id: ownerId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rnd = random(42);
  const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 19) + 'Z';
  let person = 0;
  let events = 0;
  /** The next ~1,000 people's event rows, or null at the end. */
  const nextRows = () => {
    if (person >= personIds.length) return null;
    const rows: (string | number | null)[][] = [];
    for (const end = Math.min(personIds.length, person + 1000); person < end; person++)
      for (const [type, d] of eventsOfPerson(rnd))
        rows.push([
          accountId,
          campaign.id,
          personIds[person],
          ownerId,
          type,
          day(d),
          `reader${person}@bench.test`,
          type === 'click' ? 'https://bench.test/listing' : '',
          'bench',
          day(d),
        ]);
    events += rows.length;
    return rows;
  };
  if (ctx.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await copyFrom(client, `copy em_events (${EVENT_COLUMNS.join(', ')}) from stdin`, () => {
        const rows = nextRows();
        return rows && rows.map((r) => r.map(copyValue).join('\t') + '\n').join('');
      });
    } finally {
      await client.end();
    }
  } else {
    await ctx.db.transaction().execute(async (trx) => {
      for (let rows = nextRows(); rows; rows = nextRows())
        for (let i = 0; i < rows.length; i += 500)
          await trx
            .insertInto('em_events')
            .values(
              rows
                .slice(i, i + 500)
                .map((r) => Object.fromEntries(EVENT_COLUMNS.map((c, k) => [c, r[k]]))) as never,
            )
            .execute();
    });
  }
  // The counters the application keeps with every insert, as the migration counts existing events.
  await countExistingEmEvents(ctx.db);
  await sql`analyze`.execute(ctx.db);
  if (ctx.dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(ctx.db);
  return {
    campaignId: campaign.id,
    somePeople: personIds.slice(0, 100),
    events,
    seconds: (performance.now() - began) / 1000,
  };
}
