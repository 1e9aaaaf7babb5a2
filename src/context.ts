import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { DialectName } from './db/dialect.js';
import type { Clock } from './time.js';

/** What every route and background job needs: built once at start-up, passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  log: FastifyBaseLogger;
}
