import type Database from 'better-sqlite3';

/**
 * A prepared SQLite statement, kept for reuse. Rows come back as plain objects keyed by column name,
 * built by a function made for the statement's columns: cheaper than better-sqlite3's own objects
 * (docs/performance-cpu.md, "Measured reasons").
 */
export interface CachedStatement {
  readonly reader: boolean;
  /** false for a statement that writes (an INSERT … RETURNING is a reader that writes) */
  readonly readonly: boolean;
  all(parameters: readonly unknown[]): unknown[];
  get(parameters: readonly unknown[]): unknown;
  run(parameters: readonly unknown[]): Database.RunResult;
}

/**
 * Kysely prepares every query anew; preparing costs more than running a simple indexed read, and
 * the API issues the same few hundred statements over and over. Statements are reusable in
 * better-sqlite3 (calls are synchronous), so keep the most recent ones.
 */
export interface StatementCache {
  prepare(sql: string): CachedStatement;
  /** resolves once everything the connection started in the background has stopped; closing twice closes once */
  close(): Promise<void>;
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/** `(v) => ({"id": v[0], "name": v[1], …})`: objects of one shape, built at literal speed. */
function rowBuilder(columns: string[]): RowBuilder {
  // A literal `"__proto__": x` would set the prototype; a computed key defines the property.
  const fields = columns.map(
    (name, i) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: v[${i}]`,
  );
  return new Function('v', `return { ${fields.join(', ')} };`) as RowBuilder;
}

class ReusableStatement implements CachedStatement {
  readonly reader: boolean;
  readonly readonly: boolean;
  #build: RowBuilder | null = null;
  #width = -1;

  constructor(private readonly statement: Database.Statement) {
    this.reader = statement.reader;
    this.readonly = statement.readonly;
    if (this.reader) statement.raw(true);
  }

  all(parameters: readonly unknown[]): unknown[] {
    const rows = this.statement.all(parameters) as unknown[][];
    if (rows.length === 0) return rows;
    const build = this.#builderFor(rows[0]);
    return rows.map(build);
  }

  get(parameters: readonly unknown[]): unknown {
    const row = this.statement.get(parameters) as unknown[] | undefined;
    return row && this.#builderFor(row)(row);
  }

  run(parameters: readonly unknown[]): Database.RunResult {
    return this.statement.run(parameters);
  }

  /** Made on first use, and again if a schema change gave the statement other columns. */
  #builderFor(row: unknown[]): RowBuilder {
    if (!this.#build || row.length !== this.#width) {
      const columns = this.statement.columns().map((c) => c.name);
      this.#build = rowBuilder(columns);
      this.#width = columns.length;
    }
    return this.#build;
  }
}

export function withStatementCache(
  sqlite: Database.Database,
  onClose: () => Promise<void> | void,
  max = 1000,
): StatementCache {
  const cache = new Map<string, ReusableStatement>();
  let closed: Promise<void> | null = null;
  return {
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = new ReusableStatement(sqlite.prepare(sql));
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, statement);
      }
      return statement;
    },
    close() {
      closed ??= (async () => {
        const stopped = onClose();
        cache.clear();
        sqlite.close();
        await stopped;
      })();
      return closed;
    },
  };
}
