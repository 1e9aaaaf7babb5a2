// Realistic people for the scale bench (issue 19): vocabularies for names, email domains, tags,
// stages and sources; created times over three years in id order, activity and updates after
// them; several agents and lenders.
//
// Written the way a bulk loader writes: the indexes and triggers of the people tables are set
// aside, every row (the person, its email, phone and tag lookup rows, and its search-index row)
// is written in large multi-row inserts, and the indexes are built once at the end, all in one
// transaction, so a failed seed leaves the database as it was. The search rows hold what the
// triggers would have written (SQLite: the FTS5 row of migration 0140_b; PostgreSQL: the stored
// `search_text` of 0270, from the same SQL function), and the triggers are back when it commits.
import Database from 'better-sqlite3';
import pg from 'pg';

const FIRST = (
  'James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard ' +
  'Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty ' +
  'Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua ' +
  'Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald ' +
  'Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy ' +
  'Nicholas Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott ' +
  'Nicole Brandon Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra ' +
  'Frank Rachel Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Tyler Diane'
).split(' ');
// About 15% of these end in "son", like in a US contact list.
const LAST = (
  'Smith Brown Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Moore Taylor Lee ' +
  'Perez White Harris Sanchez Clark Ramirez Lewis Walker Young Allen King Wright Scott Torres ' +
  'Nguyen Hill Flores Green Adams Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez ' +
  'Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook ' +
  'Rogers Gutierrez Ortiz Morgan Cooper Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson ' +
  'Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo ' +
  'Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman ' +
  'Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander ' +
  'Hamilton Graham Reynolds Griffin Wallace West Cole Hayes Bryant Herrera Gibson Ellis Tran ' +
  'Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez Mcdonald Woods ' +
  'Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson ' +
  'Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes ' +
  'Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt ' +
  'Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley ' +
  'Spencer Hawkins Arnold Pierce Vazquez Hansen Peters Santos Hart Bradley Knight Elliott ' +
  'Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray Delgado Berry ' +
  'Perkins Hoffman Johnston Matthews Pena Richards Contreras Willis Carpenter Lawrence Sandoval'
).split(' ');
const SON = (
  'Johnson Wilson Anderson Thompson Jackson Robinson Nelson Carlson Peterson Larson Hanson ' +
  'Jefferson Gibson Dawson Harrison Watson Olson Simpson Ferguson Patterson'
).split(' ');
const DOMAINS =
  'gmail.com yahoo.com hotmail.com outlook.com icloud.com aol.com comcast.net me.com'.split(' ');
const AREA = [212, 305, 312, 415, 512, 602, 617, 702, 713, 808, 919, 971];
const TAGS: [string, number][] = [
  ['buyer', 0.42],
  ['seller', 0.2],
  ['renter', 0.1],
  ['investor', 0.06],
  ['first-time', 0.08],
  ['vip', 0.02],
  ['relocation', 0.03],
  ['open-house', 0.12],
];
const STAGES: [string, number][] = [
  ['Lead', 0.38],
  ['Prospect', 0.18],
  ['Active Client', 0.1],
  ['Under Contract', 0.03],
  ['Closed', 0.06],
  ['Past Client', 0.08],
  ['Sphere', 0.05],
  ['Nurture', 0.05],
  ['Unresponsive', 0.03],
  ['Trash', 0.04],
];
const SOURCES: [string, number][] = [
  ['zillow.com', 0.3],
  ['realtor.com', 0.2],
  ['homes.com', 0.1],
  ['redfin.com', 0.1],
  ['Referral', 0.1],
  ['Open House', 0.08],
  ['facebook.com', 0.07],
  ['Sign Call', 0.05],
];

const YEAR_MS = 365 * 24 * 3600_000;
export const RARE_LAST_NAME = 'Quackenbush';

/** mulberry32: a small, fast deterministic generator, so every run seeds the same people. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedTarget {
  databaseUrl: string;
  accountId: number;
  stageIds: Record<string, number>;
  agentIds: number[];
  lenderIds: number[];
  /** the newest created time; the oldest is three years before */
  now: number;
}

export interface SeededPerson {
  person: Record<string, string | number | null>;
  emails: string[];
  phones: string[];
  tags: string[];
}

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

export function generator(target: SeedTarget, count: number) {
  const rnd = random(19);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
  const weighted = (list: [string, number][]) => {
    let r = rnd();
    for (const [value, weight] of list) {
      if ((r -= weight) < 0) return value;
    }
    return list[0][0];
  };
  const start = target.now - 3 * YEAR_MS;
  return (i: number): SeededPerson => {
    const first = pick(FIRST);
    const r = rnd();
    const last = r < 0.0001 ? RARE_LAST_NAME : r < 0.15 ? pick(SON) : pick(LAST);
    const created = start + Math.floor(((i + rnd()) / count) * 3 * YEAR_MS);
    const later = () => created + Math.floor(rnd() * (target.now - created));
    const tags = TAGS.filter(([, p]) => rnd() < p).map(([t]) => t);
    const phone = `${pick(AREA)}${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}`;
    const email = `${first}.${last}${i}@${pick(DOMAINS)}`.toLowerCase();
    const assigned = rnd() < 0.9 ? pick(target.agentIds) : null;
    const lender = rnd() < 0.2 ? pick(target.lenderIds) : null;
    const source = weighted(SOURCES);
    return {
      person: {
        account_id: target.accountId,
        created_at: iso(created),
        updated_at: iso(later()),
        last_activity: rnd() < 0.3 ? null : iso(later()),
        created_via: 'Import',
        name: `${first} ${last}`,
        first_name: first,
        last_name: last,
        stage_id: target.stageIds[weighted(STAGES)] ?? null,
        source,
        source_url: '',
        price: rnd() < 0.4 ? null : 100_000 + Math.floor(rnd() * 190) * 10_000,
        background: '',
        assigned_user_id: assigned,
        assigned_lender_id: lender,
        contacted: rnd() < 0.5 ? 1 : 0,
        emails: JSON.stringify([{ value: email, type: 'home', status: 'Valid', isPrimary: true }]),
        phones: JSON.stringify([
          {
            value: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
            type: 'mobile',
            status: 'Valid',
            isPrimary: true,
            normalized: phone,
          },
        ]),
        addresses: '[]',
        tags: JSON.stringify(tags),
        collaborators: '[]',
        custom: '{}',
      },
      emails: [email],
      phones: [phone],
      tags,
    };
  };
}

/** The tables one person's rows go to; their indexes and triggers wait until the load is done. */
const PEOPLE_TABLES = ['people', 'person_emails', 'person_phones', 'person_tags'];
/** People per round of generated rows (and per multi-row insert on PostgreSQL). */
const ROUND = 20_000;

export interface SeedResult {
  seconds: number;
  /** CPU seconds of this process (on SQLite all of the work; on PostgreSQL the server's is not in it) */
  cpuSeconds: number;
  /** a few of the people written, with their ids, to check against what the API answers */
  samples: (SeededPerson & { id: number })[];
}

/** Inserts `count` people into the account. */
export async function seedScalePeople(target: SeedTarget, count: number): Promise<SeedResult> {
  const began = performance.now();
  const cpu = process.cpuUsage();
  const generate = generator(target, count);
  const every = Math.max(1, Math.floor(count / 5));
  const sampled = new Map<number, SeededPerson>();
  const make = (i: number) => {
    const person = generate(i);
    if (i % every === 0 || i === count - 1) sampled.set(i, person);
    return person;
  };
  const firstId = target.databaseUrl.startsWith('sqlite:')
    ? seedSqlite(count, make, target.databaseUrl.slice('sqlite:'.length))
    : await seedPostgres(count, make, target.databaseUrl);
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - began) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    samples: [...sampled].map(([i, person]) => ({ id: firstId + i, ...person })),
  };
}

/** A table's rows as one array per column (as PostgreSQL's unnest takes them). */
type Columns = Record<string, unknown[]>;

/**
 * The rows of people `from`…`to` (ids firstId + i): the people, each lookup table's
 * (person_id, value) and the search index's (id, names, emails, phone digits), as migration
 * 0140_b's trigger would write them.
 */
function round(make: (i: number) => SeededPerson, from: number, to: number, firstId: number) {
  const people: Columns = { id: [] };
  const lookup = (column: string): Columns => ({ account_id: [], person_id: [], [column]: [] });
  const lookups = {
    emails: { table: 'person_emails', column: 'email', rows: lookup('email') },
    phones: { table: 'person_phones', column: 'normalized', rows: lookup('normalized') },
    tags: { table: 'person_tags', column: 'tag', rows: lookup('tag') },
  };
  const search: Columns = { rowid: [], names: [], emails: [], phones: [] };
  for (let i = from; i < to; i++) {
    const p = make(i);
    const id = firstId + i;
    people.id.push(id);
    for (const [column, value] of Object.entries(p.person)) (people[column] ??= []).push(value);
    for (const field of ['emails', 'phones', 'tags'] as const) {
      const { column, rows } = lookups[field];
      for (const value of p[field]) {
        rows.account_id.push(p.person.account_id);
        rows.person_id.push(id);
        rows[column].push(value);
      }
    }
    const { name, first_name, last_name } = p.person;
    search.rowid.push(id);
    search.names.push(`${name} ${first_name} ${last_name}`);
    search.emails.push(p.emails.join(' '));
    search.phones.push(p.phones.join(' '));
  }
  return { people, lookups: Object.values(lookups), search };
}

/** Returns the id of the first person written (the others follow in order). */
function seedSqlite(count: number, make: (i: number) => SeededPerson, file: string): number {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('threads = 2'); // index builds sort with a helper thread
  db.pragma('synchronous = off');
  db.pragma('foreign_keys = off'); // every reference is made consistent by construction
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = memory');
  try {
    const setAside = db
      .prepare(
        `select type, name, sql from sqlite_master where type in ('index', 'trigger')
         and sql is not null and tbl_name in (${PEOPLE_TABLES.map(() => '?').join(', ')})`,
      )
      .all(...PEOPLE_TABLES) as { type: string; name: string; sql: string }[];
    // One statement per table and row count: at most 500 rows (SQLite allows 32,766 parameters).
    const statements = new Map<string, Database.Statement>();
    const insert = (table: string, columns: Columns) => {
      const names = Object.keys(columns);
      const values = Object.values(columns);
      const rows = values[0].length;
      for (let at = 0; at < rows; at += 500) {
        const size = Math.min(500, rows - at);
        const key = `${table} ${size}`;
        let statement = statements.get(key);
        if (!statement) {
          const one = `(${names.map(() => '?').join(', ')})`;
          statement = db.prepare(
            `insert into ${table} (${names.join(', ')}) values ${Array(size).fill(one).join(', ')}`,
          );
          statements.set(key, statement);
        }
        const params: unknown[] = [];
        for (let r = at; r < at + size; r++) for (const column of values) params.push(column[r]);
        statement.run(params);
      }
    };
    const firstId = db.transaction(() => {
      for (const { type, name } of setAside) db.exec(`drop ${type} ${name}`);
      const { last } = db.prepare('select coalesce(max(id), 0) as last from people').get() as {
        last: number;
      };
      for (let from = 0; from < count; from += ROUND) {
        const to = Math.min(count, from + ROUND);
        const { people, lookups, search } = round(make, from, to, last + 1);
        insert('people', people);
        for (const { table, rows } of lookups) insert(table, rows);
        // The FTS5 rows the people_search_insert trigger would have written.
        insert('people_search', search);
      }
      for (const { sql } of setAside) db.exec(sql);
      return last + 1;
    })();
    db.exec('analyze');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return firstId;
  } finally {
    db.close();
  }
}

/** Returns the id of the first person written (the others follow in order). */
async function seedPostgres(
  count: number,
  make: (i: number) => SeededPerson,
  databaseUrl: string,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: setAside } = await client.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
       where schemaname = current_schema() and tablename = any($1)
         and indexname not in (select conname from pg_constraint)`,
      [PEOPLE_TABLES],
    );
    const columns = Object.keys(make(0).person);
    const types: Record<string, string> = {
      account_id: 'int',
      stage_id: 'int',
      assigned_user_id: 'int',
      assigned_lender_id: 'int',
      contacted: 'int',
      price: 'float8',
    };
    // search_text as the people_search_text trigger (0270) sets it, by the same function.
    const personSql = `insert into people (id, ${columns.join(', ')}, search_text)
      select u.*, hearth_person_search_text(u.name, u.first_name, u.last_name, u.emails, u.phones)
      from unnest($1::int[], ${columns.map((c, k) => `$${k + 2}::${types[c] ?? 'text'}[]`).join(', ')})
        as u(id, ${columns.join(', ')})`;
    await client.query('begin');
    // Triggers (the search-text one, whose work personSql does, and the foreign-key checks, which
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
    for (let from = 0; from < count; from += ROUND) {
      const { people, lookups } = round(make, from, Math.min(count, from + ROUND), firstId);
      await client.query(personSql, [people.id, ...columns.map((c) => people[c])]);
      for (const { table, column, rows } of lookups) {
        await client.query(
          `insert into ${table} (account_id, person_id, ${column})
           select * from unnest($1::int[], $2::int[], $3::text[])`,
          Object.values(rows),
        );
      }
    }
    for (const { definition } of setAside) await client.query(definition);
    await client.query('commit');
    await client.query('analyze');
    return firstId;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
