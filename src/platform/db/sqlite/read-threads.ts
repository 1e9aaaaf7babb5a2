import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
} from 'kysely';
import { HearthDb, type SyncReader } from '../hearth-db.js';
import { LiteralLimitSqliteQueryCompiler } from './replanning.js';
import { tooSlow } from './budget-function.js';
import { recall } from '../remembered-reads.js';

/**
 * SQLite runs on the event loop: a list query that reads a hundred thousand rows holds every
 * other request (health checks, lead events, other users) for as long as it takes. The reads
 * that can be heavy (the people list and its total) run here instead, on worker threads with a
 * read-only connection each, so the event loop stays free while they run.
 *
 * In WAL mode each statement sees exactly what was committed when it began, as the main read
 * connection does; nothing here can see a group commit's uncommitted changes. Writes and
 * transactions are refused: they belong to the writer connection.
 */
const STATEMENTS_PER_THREAD = 500;
/**
 * The read threads run at a lower priority than the event loop (nice 10), so that on busy cores
 * health checks and lead events go first and heavy lists get the time left (docs/performance.md).
 */
export const READ_THREAD_NICENESS = 10;

// Plain CommonJS given as a string (as in checkpointer.ts): runs the same from the build and under tsx.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  // Linux: a thread is a task with a priority of its own (see READ_THREAD_NICENESS).
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.niceness);
} catch {
  // elsewhere the threads run at the process's priority
}
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('temp_store = MEMORY');
const TOO_SLOW = 'hearth: query over its time budget';
db.function('hearth_within_budget', { deterministic: false }, (deadline, _row) => {
  if (Date.now() > Number(deadline)) throw new Error(TOO_SLOW);
  return 1;
});
const statements = new Map();
function prepare(sql) {
  let statement = statements.get(sql);
  if (statement) {
    statements.delete(sql);
  } else {
    statement = db.prepare(sql);
    if (statements.size >= workerData.statementsKept) statements.delete(statements.keys().next().value);
  }
  statements.set(sql, statement);
  return statement;
}
function answer({ id, sql, parameters }) {
  try {
    const statement = prepare(sql);
    if (!statement.reader) throw new Error('read threads run queries that return rows only');
    return { id, rows: statement.all(parameters) };
  } catch (error) {
    const text = String((error && error.message) || error);
    return { id, error: { message: text, code: error && error.code, tooSlow: text.includes(TOO_SLOW) } };
  }
}
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  parentPort.postMessage(message.map(answer));
});
`;

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
}

interface ReadThread {
  worker: Worker;
  pending: Map<number, Pending>;
  exited: Promise<void>;
  /** close() has asked it to stop: it holds the process open until it has exited */
  closing: boolean;
}

interface Query {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/**
 * A few worker threads, each with its own read-only connection; queries go to the least busy. The
 * queries asked for together (a list's page and its total) travel as one message each way: a
 * round trip costs about 75 µs of CPU whatever it carries (docs/performance-cpu.md).
 */
export class ReadThreads {
  #threads: ReadThread[];
  #nextId = 1;
  #batch: (Query & Pending)[] = [];

  constructor(file: string, count: number) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#threads = Array.from({ length: count }, () => {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        // Plain CommonJS: none of the parent's loaders (tsx in the tests) are needed to start it.
        execArgv: [],
        workerData: {
          file,
          driver,
          statementsKept: STATEMENTS_PER_THREAD,
          niceness: READ_THREAD_NICENESS,
        },
      });
      const thread: ReadThread = {
        worker,
        pending: new Map(),
        exited: new Promise((resolve) => worker.once('exit', () => resolve())),
        closing: false,
      };
      worker.on('message', (answers: ThreadAnswer[]) => {
        for (const answer of answers) settle(thread, answer);
      });
      worker.on('error', (error) => failAll(thread, error));
      worker.on('exit', () => failAll(thread, new Error('SQLite read thread stopped')));
      // Idle threads must not keep a short-lived process (the admin CLI) alive.
      worker.unref();
      return thread;
    });
  }

  /**
   * The rows of one read-only statement. Sent once the promise jobs running now have run, with the
   * other queries they asked for (Kysely reaches the connection a few promise jobs after the call).
   */
  all(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      if (this.#batch.length === 0) process.nextTick(() => this.#send());
      this.#batch.push({ id: this.#nextId++, sql, parameters, resolve, reject });
    });
  }

  #send(): void {
    const batch = this.#batch;
    this.#batch = [];
    const thread = this.#threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    if (thread.closing) {
      for (const { reject } of batch) reject(new Error('SQLite read threads are closed'));
      return;
    }
    if (thread.pending.size === 0) thread.worker.ref();
    for (const { id, resolve, reject } of batch) thread.pending.set(id, { resolve, reject });
    thread.worker.postMessage(batch.map(({ id, sql, parameters }) => ({ id, sql, parameters })));
  }

  /** Each thread finishes the query it is running, closes its connection and exits. */
  async close(): Promise<void> {
    for (const thread of this.#threads) {
      // Waited for: keep the process alive until the thread has closed its connection (the
      // answer to a query it is still reading must not unref it: see settle).
      thread.closing = true;
      thread.worker.ref();
      thread.worker.postMessage('stop');
    }
    await Promise.all(this.#threads.map((thread) => thread.exited));
  }
}

interface ThreadAnswer {
  id: number;
  rows?: unknown[];
  error?: { message: string; code?: string; tooSlow: boolean };
}

function settle(thread: ReadThread, answer: ThreadAnswer) {
  const pending = thread.pending.get(answer.id);
  if (!pending) return;
  thread.pending.delete(answer.id);
  if (thread.pending.size === 0 && !thread.closing) thread.worker.unref();
  if (!answer.error) return pending.resolve(answer.rows ?? []);
  if (answer.error.tooSlow) return pending.reject(tooSlow());
  pending.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
}

function failAll(thread: ReadThread, error: unknown) {
  for (const pending of thread.pending.values()) pending.reject(error);
  thread.pending.clear();
}

/**
 * Runs each query on a read thread, or answers it from what the same query read since the last
 * content change (remembered-reads.ts): the memory of the version current when the query began,
 * so a result that raced a commit is kept only where no later request looks.
 */
class ReadThreadConnection implements DatabaseConnection {
  constructor(
    private readonly threads: ReadThreads,
    private readonly reader: SyncReader,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { known, keep } = recall(this.reader, query.sql, query.parameters);
    if (known) return { rows: known.slice() as R[] };
    const rows = await this.threads.all(query.sql, query.parameters);
    keep(rows);
    return { rows: rows.slice() as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('read threads do not stream');
  }
}

class ReadThreadDriver implements Driver {
  #connection: ReadThreadConnection;
  constructor(threads: ReadThreads, reader: SyncReader) {
    this.#connection = new ReadThreadConnection(threads, reader);
  }
  async init() {}
  async acquireConnection() {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('read threads run no transactions');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection() {}
  async destroy() {}
}

/** A Kysely handle whose queries run on the read threads (same SQL as the writer's handle). */
export function readThreadsDb(threads: ReadThreads, reader: SyncReader): HearthDb {
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReadThreadDriver(threads, reader),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new LiteralLimitSqliteQueryCompiler(),
  };
  return new HearthDb(dialect, { reader, onReadThreads: true });
}
