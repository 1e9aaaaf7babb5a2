import { type Env, fail, intVar } from './config-vars.js';

/** Leads by email (src/leads/inboundEmail/). */
export interface InboundConfig {
  /** HEARTH_INBOUND_SMTP_PORT: the SMTP listener's port on HOST; null = no listener (0: any free port). */
  smtpPort: number | null;
  /** HEARTH_INBOUND_DOMAIN: the domain of lead addresses; default the host of HEARTH_PUBLIC_URL. */
  domain: string;
  /** HEARTH_INBOUND_MAX_BYTES: the largest message taken (SMTP 552, HTTP 413 above it). */
  maxBytes: number;
  /** HEARTH_INBOUND_SECRET: the bearer secret of POST /e/inbound; null = off. */
  secret: string | null;
  /**
   * HEARTH_INBOUND_RETENTION_DAYS: days a received message's raw bytes are kept once it has been
   * through the parser (the row, its status and its lead stay); 0 = for ever.
   */
  retentionDays: number;
  /** HEARTH_INBOUND_FLOOD_LIMIT: messages a minute one sender may send one lead address (451 beyond). */
  floodLimit: number;
}

/** Reads the HEARTH_INBOUND_ variables (config.ts). */
export function inboundVar(env: Env, publicUrl: string): InboundConfig {
  const domain = (env.HEARTH_INBOUND_DOMAIN?.trim() || new URL(publicUrl).hostname).toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(domain))
    fail('HEARTH_INBOUND_DOMAIN', `must be a domain name, got "${domain}"`);
  const secret = env.HEARTH_INBOUND_SECRET?.trim() || null;
  if (secret !== null && secret.length < 24)
    fail('HEARTH_INBOUND_SECRET', 'must be at least 24 characters (e.g. openssl rand -hex 24)');
  return {
    smtpPort: env.HEARTH_INBOUND_SMTP_PORT
      ? intVar(env, 'HEARTH_INBOUND_SMTP_PORT', 0, 0, 65535)
      : null,
    domain,
    maxBytes: intVar(env, 'HEARTH_INBOUND_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    secret,
    retentionDays: intVar(env, 'HEARTH_INBOUND_RETENTION_DAYS', 30, 0, 36500),
    floodLimit: intVar(env, 'HEARTH_INBOUND_FLOOD_LIMIT', 60, 1, 100_000),
  };
}
