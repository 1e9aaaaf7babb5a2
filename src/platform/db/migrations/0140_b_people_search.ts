import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/**
 * A trigram index over each person's names, emails and phone digits, for `q=` and the
 * name/firstName/lastName substring filters of GET /v1/people (issue 19).
 *
 * SQLite: an FTS5 table with the trigram tokenizer, one row per person (rowid = people.id),
 * kept by triggers on `people` itself, so every write of a person (create, update, merge, lead
 * event, import, delete, an account's cascade) changes it in the same transaction, whatever code
 * path made the write. Columns: `names` (name, first and last name), `emails` and `phones`
 * (normalized digits), read from the person's own JSON columns.
 *
 * PostgreSQL: a GIN pg_trgm index on one immutable expression of the same columns
 * (hearth_person_search_text, fields separated by newlines so no match spans two of them); the
 * index is part of the table, so it is always in step. Without the pg_trgm extension (not
 * installed, or no right to create it) the function is still made and searches stay correct,
 * only unindexed.
 */
const SQLITE_COLUMNS = {
  names: "new.name || ' ' || new.first_name || ' ' || new.last_name",
  emails: `coalesce((select group_concat(json_extract(value, '$.value'), ' ')
    from json_each(new.emails)), '')`,
  phones: `coalesce((select group_concat(json_extract(value, '$.normalized'), ' ')
    from json_each(new.phones)), '')`,
};

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table people_search using fts5(names, emails, phones, tokenize = 'trigram')`.execute(
      db,
    );
    const values = Object.values(SQLITE_COLUMNS).join(', ');
    await sql
      .raw(
        `create trigger people_search_insert after insert on people begin
           insert into people_search (rowid, names, emails, phones) values (new.id, ${values});
         end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger people_search_update
         after update of name, first_name, last_name, emails, phones on people begin
           update people_search set ${Object.entries(SQLITE_COLUMNS)
             .map(([column, value]) => `${column} = ${value}`)
             .join(', ')}
           where rowid = new.id;
         end`,
      )
      .execute(db);
    await sql`create trigger people_search_delete after delete on people begin
        delete from people_search where rowid = old.id;
      end`.execute(db);
    await sql
      .raw(
        `insert into people_search (rowid, names, emails, phones)
         select new.id, ${values} from people as new`,
      )
      .execute(db);
    return;
  }
  await sql`
    create function hearth_person_search_text(
      name text, first_name text, last_name text, emails text, phones text
    ) returns text language sql immutable parallel safe as $$
      select lower(name || ' ' || first_name || ' ' || last_name) || E'\n' ||
        coalesce((select string_agg(lower(e ->> 'value'), ' ')
                  from jsonb_array_elements(emails::jsonb) as e), '') || E'\n' ||
        coalesce((select string_agg(p ->> 'normalized', ' ')
                  from jsonb_array_elements(phones::jsonb) as p), '')
    $$`.execute(db);
  await sql`savepoint trigram`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index people_search_trgm on people using gin (
        hearth_person_search_text(name, first_name, last_name, emails, phones) gin_trgm_ops)`.execute(
      db,
    );
    await sql`release savepoint trigram`.execute(db);
  } catch {
    await sql`rollback to savepoint trigram`.execute(db);
  }
}
