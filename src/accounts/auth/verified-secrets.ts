import { timingSafeEqual } from 'node:crypto';

/**
 * What a presented secret (an API key's Authorization header, a session id) was verified to stand
 * for, kept a few seconds: otherwise every request pays a SHA-256 and a database read for it.
 * Entries are found by the secret's first `indexChars` characters, so the lookup's timing can tell
 * at most those, then the whole secret is compared in constant time. Unknown secrets are never
 * kept; whoever ends or changes what a secret stands for forgets it here.
 */
export class VerifiedSecrets<T> {
  readonly #entries = new Map<string, { secret: Buffer; value: T; until: number }>();

  constructor(
    private readonly indexChars: number,
    private readonly keepMs = 5_000,
    private readonly max = 10_000,
  ) {}

  get(secret: string, now: number): T | undefined {
    const index = secret.slice(0, this.indexChars);
    const entry = this.#entries.get(index);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(index);
      return undefined;
    }
    const presented = Buffer.from(secret);
    const same =
      presented.length === entry.secret.length && timingSafeEqual(presented, entry.secret);
    return same ? entry.value : undefined;
  }

  set(secret: string, value: T, now: number): void {
    if (this.#entries.size >= this.max)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(secret.slice(0, this.indexChars), {
      secret: Buffer.from(secret),
      value,
      until: now + this.keepMs,
    });
  }

  /** Forgets the secret (a no-op for one not kept). */
  delete(secret: string): void {
    if (this.get(secret, 0) !== undefined) this.#entries.delete(secret.slice(0, this.indexChars));
  }

  /** Forgets every secret whose value matches (a user's, after their role changed). */
  forget(matches: (value: T) => boolean): void {
    for (const [index, entry] of this.#entries)
      if (matches(entry.value)) this.#entries.delete(index);
  }
}
