import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from './config.js';
import type { HearthDb } from './db/hearth-db.js';
import type { DialectName } from './db/dialect.js';
import type { Clock } from './time.js';

/** What every route and background job needs: built once at start-up, passed down explicitly. */
export interface AppContext {
  config: Config;
  /** every connection of the process (hearth-db.ts) */
  db: HearthDb;
  dialect: DialectName;
  clock: Clock;
  log: FastifyBaseLogger;
  /** HEARTH_SMTP_URL's transport (account emails, notifications, test sends); null when unset */
  smtp: Transporter | null;
}
