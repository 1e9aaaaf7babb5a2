import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/**
 * PostgreSQL: the people search text becomes a stored column (`people.search_text`), set by a
 * trigger from the same function 0140_b indexed, and the trigram index moves onto it.
 *
 * Why: with the index on the expression, every candidate row the index found was re-checked by
 * evaluating the expression, which parses the person's emails and phones JSON: a common term
 * (`q=john`, 15% of a million people) re-checked ~150,000 rows at ~2 µs each, 344 ms a page.
 * Reading a stored column costs a fraction of that, and a common term can walk the sort order
 * testing the column instead of collecting every match.
 *
 * The trigger fires on insert and on any update of the five source columns, so every write of a
 * person (create, update, merge, lead event, import) keeps the column in step in the same
 * transaction. SQLite keeps its FTS5 table (0140_b); nothing changes there.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter table people add column search_text text`.execute(db);
  await sql`
    create function hearth_people_search_text_trigger() returns trigger language plpgsql as $$
    begin
      new.search_text := hearth_person_search_text(
        new.name, new.first_name, new.last_name, new.emails, new.phones);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger people_search_text
    before insert or update of name, first_name, last_name, emails, phones on people
    for each row execute function hearth_people_search_text_trigger()`.execute(db);
  await sql`update people set search_text =
      hearth_person_search_text(name, first_name, last_name, emails, phones)`.execute(db);
  await sql`alter table people alter column search_text set not null`.execute(db);
  await sql`drop index if exists people_search_trgm`.execute(db);
  await sql`savepoint trigram`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index people_search_trgm on people using gin (search_text gin_trgm_ops)`.execute(
      db,
    );
    await sql`release savepoint trigram`.execute(db);
  } catch {
    await sql`rollback to savepoint trigram`.execute(db);
  }
}
