// Realistic people for the scale bench (issue 19): vocabularies for names, email domains, tags,
// stages and sources; created times over three years in id order, activity and updates after
// them; several agents and lenders.
//
// Written the way a bulk loader writes (scale-seed-sqlite.ts, scale-seed-postgres.ts): the
// indexes and triggers of the people tables are set aside, every row (the person, its email, phone
// and tag lookup rows, and its search-index row) is written in bulk, and the indexes are built
// once at the end, all in one transaction, so a failed seed leaves the database as it was. The
// search rows hold what the triggers would have written (SQLite: the FTS5 row of migration 0140_b;
// PostgreSQL: the stored `search_text` of 0270, from the same SQL function), and the triggers are
// back when it commits.
import { seedPostgres } from './scale-seed-postgres.js';
import { seedSqlite } from './scale-seed-sqlite.js';

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

type Value = string | number | null;

/** The columns of people a generated person fills, in the order of its `values`. */
export const PERSON_COLUMNS = [
  'account_id',
  'created_at',
  'updated_at',
  'last_activity',
  'created_via',
  'name',
  'first_name',
  'last_name',
  'stage_id',
  'source',
  'source_url',
  'price',
  'background',
  'assigned_user_id',
  'assigned_lender_id',
  'contacted',
  'emails',
  'phones',
  'addresses',
  'tags',
  'collaborators',
  'custom',
] as const;

/** One generated person: its people row (PERSON_COLUMNS order, without id) and what hangs off it. */
export interface GeneratedPerson {
  values: Value[];
  name: string;
  first: string;
  last: string;
  email: string;
  /** the phone's digits (its `normalized` value) */
  phone: string;
  tags: string[];
}

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * Person i of `count`. The draws from the random sequence are made in a fixed order, so every run
 * (and both databases) seed the same people; the JSON columns are written out as JSON.stringify
 * would write them, without building the objects.
 */
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
  return (i: number): GeneratedPerson => {
    const first = pick(FIRST);
    const r = rnd();
    const last = r < 0.0001 ? RARE_LAST_NAME : r < 0.15 ? pick(SON) : pick(LAST);
    const created = start + Math.floor(((i + rnd()) / count) * 3 * YEAR_MS);
    const later = () => created + Math.floor(rnd() * (target.now - created));
    const tags: string[] = [];
    for (const [tag, p] of TAGS) if (rnd() < p) tags.push(tag);
    const phone = `${pick(AREA)}${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}`;
    const email = `${first}.${last}${i}@${pick(DOMAINS)}`.toLowerCase();
    const assigned = rnd() < 0.9 ? pick(target.agentIds) : null;
    const lender = rnd() < 0.2 ? pick(target.lenderIds) : null;
    const source = weighted(SOURCES);
    const updated = iso(later());
    const lastActivity = rnd() < 0.3 ? null : iso(later());
    const stage = target.stageIds[weighted(STAGES)] ?? null;
    const price = rnd() < 0.4 ? null : 100_000 + Math.floor(rnd() * 190) * 10_000;
    const contacted = rnd() < 0.5 ? 1 : 0;
    const name = `${first} ${last}`;
    const shown = `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`;
    const emails = `[{"value":${JSON.stringify(email)},"type":"home","status":"Valid","isPrimary":true}]`;
    const phones =
      `[{"value":${JSON.stringify(shown)},"type":"mobile","status":"Valid","isPrimary":true,` +
      `"normalized":${JSON.stringify(phone)}}]`;
    return {
      values: [
        target.accountId,
        iso(created),
        updated,
        lastActivity,
        'Import',
        name,
        first,
        last,
        stage,
        source,
        '',
        price,
        '',
        assigned,
        lender,
        contacted,
        emails,
        phones,
        '[]',
        JSON.stringify(tags),
        '[]',
        '{}',
      ],
      name,
      first,
      last,
      email,
      phone,
      tags,
    };
  };
}

/** The three columns of the person's search-index row (0140_b), as its trigger writes them. */
export const searchRow = (p: GeneratedPerson) => [
  `${p.name} ${p.first} ${p.last}`,
  p.email,
  p.phone,
];

/** What a loader writes: `count` people, made in id order by `make(i)`. */
export interface SeedSource {
  target: SeedTarget;
  count: number;
  make: (i: number) => GeneratedPerson;
  /** adds the seconds since the last lap to the named phase */
  lap: (phase: string) => void;
}

export interface SeedResult {
  seconds: number;
  /** CPU seconds of this process (on SQLite all of the work; on PostgreSQL the server's is not in it) */
  cpuSeconds: number;
  /** where the time went: wall and this process's CPU seconds per phase (insert, index, analyze…) */
  phases: Record<string, { seconds: number; cpuSeconds: number }>;
  /** a few of the people written, with their ids, to check against what the API answers */
  samples: (SeededPerson & { id: number })[];
}

/** Inserts `count` people into the account. */
export async function seedScalePeople(target: SeedTarget, count: number): Promise<SeedResult> {
  const began = performance.now();
  const cpu = process.cpuUsage();
  const generate = generator(target, count);
  const every = Math.max(1, Math.floor(count / 5));
  const sampled = new Map<number, GeneratedPerson>();
  const phases: SeedResult['phases'] = {};
  let mark = began;
  let cpuMark = cpu;
  const source: SeedSource = {
    target,
    count,
    make: (i) => {
      const person = generate(i);
      if (i % every === 0 || i === count - 1) sampled.set(i, person);
      return person;
    },
    lap: (phase) => {
      const [now, cpuNow] = [performance.now(), process.cpuUsage()];
      const spent = (phases[phase] ??= { seconds: 0, cpuSeconds: 0 });
      spent.seconds += (now - mark) / 1000;
      spent.cpuSeconds += (cpuNow.user + cpuNow.system - cpuMark.user - cpuMark.system) / 1e6;
      [mark, cpuMark] = [now, cpuNow];
    },
  };
  const firstId = target.databaseUrl.startsWith('sqlite:')
    ? await seedSqlite(source, target.databaseUrl.slice('sqlite:'.length))
    : await seedPostgres(source, target.databaseUrl);
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - began) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    phases,
    samples: [...sampled].map(([i, p]) => ({
      id: firstId + i,
      person: Object.fromEntries(PERSON_COLUMNS.map((column, k) => [column, p.values[k]])),
      emails: [p.email],
      phones: [p.phone],
      tags: p.tags,
    })),
  };
}
