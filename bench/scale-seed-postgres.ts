// The PostgreSQL loader of scale-seed.ts: in one transaction, the people tables' indexes are
// dropped and triggers switched off, the rows stream in with COPY (pg-copy.ts), and the indexes
// are built back before the commit.
import pg from 'pg';
import { copyFrom, copyValue } from './pg-copy.js';
import { type GeneratedPerson, PERSON_COLUMNS, type SeedSource } from './scale-seed.js';

/** The tables one person's rows go to; their indexes wait until the load is done. */
const PEOPLE_TABLES = ['people', 'person_emails', 'person_phones', 'person_tags'];
/** People per chunk of COPY data (about 0.5 MB). */
const CHUNK = 1_000;

/**
 * What the people_search_text trigger (0270) stores, hearth_person_search_text(): lower-cased
 * names, then emails, then phone digits, one line each. Written here rather than by the function:
 * the function parses the JSON columns again, which cost the server ~20 µs a person (longer than
 * the rest of the load). seedPostgres checks a sample against the function before it commits.
 */
const searchText = (p: GeneratedPerson) =>
  `${`${p.name} ${p.first} ${p.last}`.toLowerCase()}\n${p.email.toLowerCase()}\n${p.phone}`;

/** Returns the id of the first person written (the others follow in order). */
export async function seedPostgres(source: SeedSource, databaseUrl: string): Promise<number> {
  const { count, make, lap } = source;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: setAside } = await client.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
       where schemaname = current_schema() and tablename = any($1)
         and indexname not in (select conname from pg_constraint)`,
      [PEOPLE_TABLES],
    );
    await client.query('begin');
    // Triggers (the search-text one, whose work searchText does, and the foreign-key checks, which
    // every row passes by construction) are off for this transaction only.
    await client.query('set local session_replication_role = replica');
    await client.query(`set local maintenance_work_mem = '512MB'`);
    for (const { name } of setAside) await client.query(`drop index ${name}`);
    const { rows } = await client.query<{ first: string }>(
      `select nextval(pg_get_serial_sequence('people', 'id')) as first`,
    );
    const firstId = Number(rows[0].first);
    await client.query(`select setval(pg_get_serial_sequence('people', 'id'), $1)`, [
      firstId + count - 1,
    ]);
    lap('setup');
    // The lookup rows wait in memory (a few dozen bytes each) while people stream in.
    const lookups: Record<string, string[]> = {
      person_emails: [],
      person_phones: [],
      person_tags: [],
    };
    let i = 0;
    const people = () => {
      if (i >= count) return null;
      let chunk = '';
      for (const end = Math.min(count, i + CHUNK); i < end; i++) {
        const p = make(i);
        const id = firstId + i;
        const account = p.values[0];
        chunk += `${id}\t${p.values.map(copyValue).join('\t')}\t${copyValue(searchText(p))}\n`;
        lookups.person_emails.push(`${account}\t${id}\t${copyValue(p.email)}\n`);
        lookups.person_phones.push(`${account}\t${id}\t${copyValue(p.phone)}\n`);
        for (const tag of p.tags)
          lookups.person_tags.push(`${account}\t${id}\t${copyValue(tag)}\n`);
      }
      return chunk;
    };
    await copyFrom(
      client,
      `copy people (id, ${PERSON_COLUMNS.join(', ')}, search_text) from stdin`,
      people,
    );
    lap('insert people');
    const columns = { person_emails: 'email', person_phones: 'normalized', person_tags: 'tag' };
    for (const [table, lines] of Object.entries(lookups)) {
      let at = 0;
      const next = () => {
        if (at >= lines.length) return null;
        const chunk = lines.slice(at, at + 10 * CHUNK).join('');
        at += 10 * CHUNK;
        return chunk;
      };
      await copyFrom(
        client,
        `copy ${table} (account_id, person_id, ${columns[table as keyof typeof columns]}) from stdin`,
        next,
      );
    }
    lap('insert lookups');
    await checkSearchText(client, firstId, count);
    for (const { definition } of setAside) {
      await client.query(definition);
      lap(/using gin/i.test(definition) ? 'trigram index' : 'other indexes');
    }
    await client.query('commit');
    lap('commit');
    // As autovacuum leaves a database that has settled after a bulk load: statistics, and the
    // visibility map that lets counts answer from their indexes alone (index-only scans); without
    // it the createdAfter= total read 5,000 table rows to check each index entry's visibility.
    await client.query('vacuum (analyze)');
    lap('vacuum analyze');
    return firstId;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** Some of the people written have the search text the trigger's function gives them. */
async function checkSearchText(client: pg.Client, firstId: number, count: number) {
  const ids = Array.from({ length: 100 }, (_, k) => firstId + Math.floor((k * count) / 100));
  const { rows } = await client.query<{ id: number }>(
    `select id from people where id = any($1::int[]) and search_text
       is distinct from hearth_person_search_text(name, first_name, last_name, emails, phones)`,
    [ids],
  );
  if (rows.length > 0)
    throw new Error(`seed: people ${rows.map((r) => r.id).join(', ')} have a stale search_text`);
}
