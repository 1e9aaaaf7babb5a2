import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DB } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';

// COUNT(*) and other int8 results come back as strings by default; our counts fit in a double.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface OpenedDatabase {
  db: Kysely<DB>;
  dialect: DialectName;
}

export function openDatabase(databaseUrl: string, options: { poolSize?: number } = {}): OpenedDatabase {
  const dialect = dialectOf(databaseUrl);
  if (dialect === 'sqlite') {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = new Database(file === ':memory:' ? ':memory:' : file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) }), dialect };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), dialect };
}
