import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Moves SQLite's WAL checkpoints off the event loop. A checkpoint copies the WAL back into the
 * database file and syncs it to disk; run by the writer (SQLite's default, every 1,000 pages) it
 * stalls every request for tens of milliseconds. Here a worker thread with its own connection
 * runs a PASSIVE checkpoint (it never blocks the writer or the readers) every INTERVAL_MS. The
 * writer's own automatic checkpoint stays on at a higher threshold, as a safety net should this
 * thread ever fall behind.
 */
export const INTERVAL_MS = 200;
export const WRITER_AUTOCHECKPOINT_PAGES = 20_000;

// The worker is plain CommonJS given as a string: it runs the same from the compiled build and
// under tsx in the tests, without a file of its own to resolve.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch (error) {
    parentPort.postMessage(String(error && error.message || error));
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** the thread closes its connection and exits (a checkpoint under way finishes first); resolves when it has */
  stop(): Promise<void>;
}

export function startCheckpointer(
  file: string,
  onError: (message: string) => void = () => {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs: INTERVAL_MS },
  });
  worker.on('message', (message) => onError(String(message)));
  worker.on('error', (error) => onError(error.message));
  // A server shutting down closes the database (and stops this); a short-lived process such as
  // the admin CLI must not be kept alive by it.
  worker.unref();
  let running = true;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => (running = false));
  return {
    stop() {
      if (running) {
        // Waited for: keep the process alive until the thread has closed its connection.
        worker.ref();
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}
