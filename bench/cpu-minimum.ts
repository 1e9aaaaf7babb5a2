// The same-stack minimum server of `npm run bench -- cpu`: Fastify over TLS, better-sqlite3 prepared
// statements and JSON documents, answering the bench's requests with the same shapes as Hearth but
// with no authentication, validation beyond the body's type, visibility, outbox or hooks. What a
// request costs here is the floor the stack sets; Hearth's cost above it is Hearth's own work.
// Run as its own process: MIN_DATA_DIR (with tls-key.pem, tls-cert.pem), PORT, MIN_PEOPLE.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { type PersonInput, seedPerson } from './cpu-people.js';

const dir = process.env.MIN_DATA_DIR!;
const db = new Database(path.join(dir, 'minimum.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  create table people (id integer primary key, name text not null, doc text not null,
    created_at text not null, updated_at text not null);
  create index people_name on people(name);
  create table person_emails (email text primary key, person_id integer not null);
  create table events (id integer primary key, person_id integer not null, doc text not null,
    created_at text not null);
`);

interface Row {
  id: number;
  doc: string;
  created_at: string;
  updated_at: string;
}

const insertPerson = db.prepare(
  'insert into people (name, doc, created_at, updated_at) values (?, ?, ?, ?) returning *',
);
const insertEmail = db.prepare(
  'insert or ignore into person_emails (email, person_id) values (?, ?)',
);
const personById = db.prepare('select * from people where id = ?');
const personByEmail = db.prepare(
  'select p.* from person_emails e join people p on p.id = e.person_id where e.email = ?',
);
const touchPerson = db.prepare('update people set updated_at = ? where id = ?');
const insertEvent = db.prepare(
  'insert into events (person_id, doc, created_at) values (?, ?, ?) returning id',
);
const page = db.prepare('select * from people order by id limit ? offset ?');
const count = db.prepare('select count(*) as n from people');
const search = db.prepare('select * from people where name like ? order by id limit ?');

const present = (row: Row) => ({
  id: row.id,
  created: row.created_at,
  updated: row.updated_at,
  ...(JSON.parse(row.doc) as object),
});

const createPerson = db.transaction((input: PersonInput, at: string) => {
  const name = `${input.firstName ?? ''} ${input.lastName ?? ''}`.trim();
  const row = insertPerson.get(name, JSON.stringify({ ...input, name }), at, at) as Row;
  for (const email of input.emails ?? []) insertEmail.run(email.value.toLowerCase(), row.id);
  return row;
});

const recordEvent = db.transaction((event: { person: PersonInput }, at: string) => {
  const email = event.person.emails?.[0]?.value.toLowerCase();
  let person = email ? (personByEmail.get(email) as Row | undefined) : undefined;
  if (person) touchPerson.run(at, person.id);
  else person = createPerson(event.person, at);
  const { id } = insertEvent.get(person.id, JSON.stringify(event), at) as { id: number };
  return { id, personId: person.id, created: at, ...event };
});

for (let i = 0; i < Number(process.env.MIN_PEOPLE ?? 1000); i++)
  createPerson(seedPerson(i), new Date().toISOString());

const app = Fastify({
  https: {
    key: readFileSync(path.join(dir, 'tls-key.pem')),
    cert: readFileSync(path.join(dir, 'tls-cert.pem')),
  },
});
const object = { type: 'object' } as const;

app.get<{ Params: { id: string } }>('/v1/people/:id', async (request, reply) => {
  const row = personById.get(Number(request.params.id)) as Row | undefined;
  return row ? present(row) : reply.code(404).send({ errorMessage: 'Not found' });
});
app.get<{ Querystring: { limit?: string; offset?: string; q?: string } }>(
  '/v1/people',
  async (request) => {
    const limit = Math.min(100, Number(request.query.limit ?? 10));
    const offset = Number(request.query.offset ?? 0);
    const { q } = request.query;
    const rows = (q ? search.all(`%${q}%`, limit) : page.all(limit, offset)) as Row[];
    const total = (count.get() as { n: number }).n;
    return { _metadata: { collection: 'people', limit, offset, total }, people: rows.map(present) };
  },
);
app.post<{ Body: PersonInput }>(
  '/v1/people',
  { schema: { body: object } },
  async (request, reply) =>
    reply.code(201).send(present(createPerson(request.body, new Date().toISOString()))),
);
app.post<{ Body: { person: PersonInput } }>(
  '/v1/events',
  { schema: { body: object } },
  async (request, reply) =>
    reply.code(201).send(recordEvent(request.body, new Date().toISOString())),
);
app.get('/health', async () => ({ status: 'ok' }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
