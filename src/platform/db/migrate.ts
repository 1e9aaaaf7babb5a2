import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DialectName } from './dialect.js';
import { migrations } from './migrations/index.js';

function providerFor(dialect: DialectName): MigrationProvider {
  return {
    async getMigrations() {
      const all: Record<string, Migration> = {};
      for (const [name, migration] of Object.entries(migrations)) {
        all[name] = { up: (db) => migration.up(db, dialect) };
      }
      return all;
    },
  };
}

/** Runs every pending migration; concurrent callers are serialised by Kysely's lock table. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  // Numbers are handed out per feature ahead of time, so one can land after a higher one already
  // ran somewhere: a database that has 0180 still takes a new 0170 instead of refusing to start.
  const migrator = new Migrator({
    db,
    provider: providerFor(dialect),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`,
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
