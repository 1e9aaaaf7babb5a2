import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { DB } from '../../platform/db/database.js';
import { hashSecret } from '../keys.js';
import {
  decryptSystemKey,
  encryptSystemKey,
  serverSecret,
  SigningKeyUnavailable,
} from './signing.js';
import './webhooks.tables.js';

/**
 * Only the SHA-256 of a system key is kept in `systems`, but deliveries must be signed with the
 * key itself. When a system registers a webhook it proves its key (X-System-Key); Hearth keeps
 * that key encrypted (AES-256-GCM under the server secret) to sign its deliveries.
 */
export async function storeSigningKey(
  db: Kysely<DB>,
  config: AppContext['config'],
  system: string,
  systemKey: string,
  at: string,
): Promise<void> {
  const keyHash = hashSecret(systemKey);
  const existing = await db
    .selectFrom('webhook_signing_keys')
    .select('key_hash')
    .where('system', '=', system)
    .executeTakeFirst();
  if (existing?.key_hash === keyHash) return;
  const row = {
    key_hash: keyHash,
    key_cipher: encryptSystemKey(serverSecret(config), systemKey),
    updated_at: at,
  };
  await db
    .insertInto('webhook_signing_keys')
    .values({ system, ...row })
    .onConflict((oc) => oc.column('system').doUpdateSet(row))
    .execute();
}

const CACHE_MS = 60_000;

/** Decrypted keys, cached briefly so that a busy webhook does not decrypt for every delivery. */
export class SigningKeys {
  private readonly cache = new Map<string, { key: string; until: number }>();
  constructor(private readonly ctx: AppContext) {}

  async get(system: string): Promise<string> {
    const cached = this.cache.get(system);
    if (cached && cached.until > Date.now()) return cached.key;
    const row = await this.ctx.db
      .selectFrom('webhook_signing_keys')
      .select('key_cipher')
      .where('system', '=', system)
      .executeTakeFirst();
    if (!row) throw new SigningKeyUnavailable(`no signing key stored for system '${system}'`);
    const key = decryptSystemKey(serverSecret(this.ctx.config), row.key_cipher);
    this.cache.set(system, { key, until: Date.now() + CACHE_MS });
    return key;
  }
}
