import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/** Issue 31: an import's value mapping (the file's stage, agent, lender and source words → Hearth's). */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await sql`alter table imports add column value_map text not null default '{}'`.execute(db);
}
