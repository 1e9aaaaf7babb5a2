import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
} from 'kysely';
import type { StatementCache } from './statement-cache.js';
import { LiteralLimitSqliteQueryCompiler } from './replanning.js';
import type { ContentVersion } from './content-version.js';

/**
 * SQLite group commit. SQLite has one writer, so Kysely already runs transactions one after the
 * other on one connection; what each one then pays is its COMMIT, which writes every page it
 * touched to the WAL (and now and then a checkpoint): more than the rest of a typical write.
 * Here the transactions of one turn of the event loop share one COMMIT instead:
 *
 * - the first opens the real transaction (BEGIN IMMEDIATE); each runs inside its own SAVEPOINT, so
 *   one that fails is rolled back alone and the others are untouched;
 * - the group commits once the requests already received have had their turn (setImmediate), or
 *   when a transaction finishes and the group is MAX_MEMBERS strong or MAX_OPEN_MS old.
 *   better-sqlite3 is synchronous, so a transaction never yields to another request half-way:
 *   without that deferral no group would ever hold more than one transaction;
 * - a transaction's caller resumes only once its group's COMMIT has succeeded (an answer is never
 *   sent for an uncommitted change), and if that COMMIT fails every member fails;
 * - a statement run outside a transaction first commits the open group, then runs on its own as
 *   usual: nothing outside a transaction ever sees, or joins, changes that are not committed.
 *
 * The rule this relies on (DESIGN.md: never wait on the network inside a transaction): a
 * transaction's callback awaits only the database. A callback that waited for another request's
 * transaction to return would wait for ever, since that one returns only when the group commits.
 */
const MAX_MEMBERS = 100;
const MAX_OPEN_MS = 25;
const MEMBER = 'hearth_member';

class Group {
  members = 0;
  commitScheduled = false;
  readonly opened = Date.now();
  readonly settled: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;
  constructor() {
    this.settled = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Awaited by the members that joined; a group nobody joined must not raise an unhandled rejection.
    this.settled.catch(() => {});
  }
}

class GroupCommitDriver implements Driver {
  #connection!: DatabaseConnection;
  #held = false;
  #waiting: (() => void)[] = [];
  #group: Group | null = null;
  /** whether the current holder of the connection committed a transaction into the open group */
  #joined = false;
  /** inside a transaction's own savepoint */
  #inMember = false;
  /** the scheduled commit found the connection in use: the holder commits when it releases it */
  #commitDue = false;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly statements: StatementCache,
    /** false: every transaction commits alone as it ends (HEARTH_DB_SHORTCUTS=off, for the bench) */
    private readonly grouped: boolean,
    /** told what each commit wrote (the remembered list totals follow it) */
    private readonly version: ContentVersion | null,
  ) {}

  async init(): Promise<void> {
    this.#connection = {
      executeQuery: <R>(query: CompiledQuery) => this.#execute(query) as Promise<QueryResult<R>>,
      streamQuery: <R>() => this.#noStreaming() as AsyncIterableIterator<QueryResult<R>>,
    };
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#held = true;
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    if (!this.#group) {
      this.#run('begin immediate');
      this.#group = new Group();
    }
    this.#run(`savepoint ${MEMBER}`);
    this.#inMember = true;
  }

  async commitTransaction(): Promise<void> {
    this.#run(`release ${MEMBER}`);
    this.#inMember = false;
    this.#group!.members += 1;
    this.#joined = true;
  }

  async rollbackTransaction(): Promise<void> {
    this.#inMember = false;
    if (this.#group && this.sqlite.inTransaction) {
      this.#run(`rollback to ${MEMBER}`);
      this.#run(`release ${MEMBER}`);
      return;
    }
    // SQLite rolled the whole transaction back itself (an I/O or disk-full error): the group is lost.
    this.#failGroup(new Error('The database rolled back the transaction'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#run(`savepoint "${name}"`);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#run(`rollback to "${name}"`);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    this.#run(`release "${name}"`);
  }

  async releaseConnection(): Promise<void> {
    const group = this.#group;
    const joined = this.#joined;
    this.#joined = false;
    if (group) {
      if (
        !this.grouped ||
        this.#commitDue ||
        group.members >= MAX_MEMBERS ||
        Date.now() - group.opened >= MAX_OPEN_MS
      )
        this.#commitGroup(group);
      else this.#scheduleCommit(group);
    }
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
    if (joined && group) await group.settled;
  }

  #scheduleCommit(group: Group): void {
    if (group.commitScheduled) return;
    group.commitScheduled = true;
    setImmediate(() => {
      if (this.#group !== group) return;
      if (this.#held) this.#commitDue = true;
      else this.#commitGroup(group);
    });
  }

  async destroy(): Promise<void> {
    // A transaction still in progress is abandoned, as closing the connection would: only finished
    // ones are committed.
    if (this.#inMember && this.sqlite.inTransaction) {
      this.#run(`rollback to ${MEMBER}`);
      this.#run(`release ${MEMBER}`);
      this.#inMember = false;
    }
    if (this.#group) this.#commitGroup(this.#group);
    await this.statements.close();
  }

  #commitGroup(group: Group): void {
    this.#group = null;
    this.#commitDue = false;
    try {
      this.#run('commit');
      this.version?.settled();
      group.resolve();
    } catch (error) {
      this.version?.settled();
      try {
        if (this.sqlite.inTransaction) this.sqlite.prepare('rollback').run();
      } catch {
        /* the group has failed either way; its members hear the COMMIT's error */
      }
      group.reject(error);
    }
  }

  #failGroup(error: Error): void {
    const group = this.#group;
    this.#group = null;
    this.#commitDue = false;
    group?.reject(error);
  }

  #run(sql: string): void {
    this.statements.prepare(sql).run([]);
  }

  async #execute(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.#group && !this.#inMember) this.#commitGroup(this.#group);
    const statement = this.statements.prepare(query.sql);
    const writes = !statement.readonly;
    if (writes) this.version?.wrote(query.sql);
    try {
      if (statement.reader) return { rows: statement.all(query.parameters) as unknown[] };
      const { changes, lastInsertRowid } = statement.run(query.parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      if (this.#group && !this.sqlite.inTransaction) this.#failGroup(error as Error);
      throw error;
    } finally {
      // Outside a transaction the statement committed (or failed) on its own.
      if (writes && !this.#inMember) this.version?.settled();
    }
  }

  // eslint-disable-next-line require-yield
  async *#noStreaming(): AsyncIterableIterator<QueryResult<unknown>> {
    throw new Error('Streaming queries are not used by Hearth');
  }
}

/** Kysely's SQLite dialect with group commit (see GroupCommitDriver) and literal LIMITs (replanning.ts). */
export class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly statements: StatementCache,
    private readonly options: { grouped: boolean; version?: ContentVersion } = { grouped: true },
  ) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new GroupCommitDriver(
      this.sqlite,
      this.statements,
      this.options.grouped,
      this.options.version ?? null,
    );
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitSqliteQueryCompiler();
  }
}

/**
 * SQLite does run DDL inside transactions; Kysely's adapter only says it does not, to be safe. Saying
 * so makes the Migrator run every pending migration in one transaction, which here begins with
 * BEGIN IMMEDIATE: it holds the write lock from reading which migrations ran to committing them, so
 * two processes starting on one new file (an API and a worker, or the admin CLI) migrate one after
 * the other instead of both creating the same tables.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
