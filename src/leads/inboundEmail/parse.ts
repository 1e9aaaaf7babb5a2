import type { AppContext } from '../../platform/context.js';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { Selectable, Updateable } from 'kysely';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { ApiError } from '../../platform/http/errors.js';
import { ingestEvent } from '../events/events.service.js';
import { isoSeconds } from '../../platform/time.js';
import { type Mail, readMail } from './mime.js';
import { decodedLead } from './decoded.js';
import type { InboundEmailsTable, InboundStatus } from './inboundEmail.tables.js';
import { type Decoded, UndecodableMail } from './parse-pool.js';

export type ParseOutcome = 'created' | 'updated' | 'unparsed' | 'ignored' | 'rejected' | 'done';

/** The run found the message parsed already (a second worker after a lease ran out). */
export class AlreadyParsed extends Error {}

/** Who a parsed lead is sent as: the address's user while active, else the account's first Owner. */
export async function actorOf(
  db: DbOrTrx,
  accountId: number,
  userId: number | null,
): Promise<AuthUser> {
  const users = db
    .selectFrom('users')
    .select(['id', 'role', 'name', 'email'])
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null);
  const user =
    (userId === null ? undefined : await users.where('id', '=', userId).executeTakeFirst()) ??
    (await users.where('role', '=', 'Owner').orderBy('id').executeTakeFirstOrThrow());
  return { accountId, userId: user.id, role: user.role, name: user.name, email: user.email };
}

/** Sets a message's outcome while it still has one of the `from` statuses (else AlreadyParsed). */
export async function mark(
  db: DbOrTrx,
  id: number,
  values: Updateable<InboundEmailsTable>,
  from: InboundStatus[] = ['received'],
): Promise<void> {
  const result = await db
    .updateTable('inbound_emails')
    .set(values)
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new AlreadyParsed();
}

/** Headers as decoded, for the list (the store kept them undecoded). */
const decodedHeaders = (mail: Decoded['mail'], nowMs: number) => ({
  subject: mail.subject.slice(0, 1000),
  mail_from: mail.from.slice(0, 500),
  parsed_at: isoSeconds(nowMs),
});

/** Decodes and parses in this thread (historic parsing, tests); the job uses the ParsePool. */
export async function decodeHere(raw: Buffer): Promise<Decoded> {
  let mail: Mail;
  try {
    mail = await readMail(raw);
  } catch (err) {
    throw new UndecodableMail((err as Error).message);
  }
  return decodedLead(mail);
}

export const STORED_COLUMNS = [
  'id',
  'account_id',
  'user_id',
  'raw',
  'status',
  'received_at',
] as const;
export type StoredMessage = Pick<Selectable<InboundEmailsTable>, (typeof STORED_COLUMNS)[number]>;

/** Who parsed leads are sent as, looked up once per batch for each address owner. */
export type Actors = Map<string, Promise<AuthUser>>;
function actorFor(ctx: AppContext, actors: Actors, row: StoredMessage): Promise<AuthUser> {
  const key = `${row.account_id}:${row.user_id}`;
  let actor = actors.get(key);
  if (!actor) actors.set(key, (actor = actorOf(ctx.db, row.account_id, row.user_id)));
  return actor;
}

/**
 * Parses one stored message and sends its lead the way of POST /v1/events, the message's status
 * committed with the lead. Historic: `Historic Email Parsing`, created at the email's date, no
 * automation.
 */
export async function parseInbound(
  ctx: AppContext,
  id: number,
  historic = false,
  /** the message as its caller decoded it already (a mailbox's), else decoded here */
  given?: Decoded,
): Promise<ParseOutcome> {
  const row = await ctx.db
    .selectFrom('inbound_emails')
    .select(STORED_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.status !== 'received') return 'done';
  const decoded =
    given ??
    (await decodeHere(row.raw).catch((err: unknown) => {
      if (err instanceof UndecodableMail) return err;
      throw err;
    }));
  return applyDecoded(ctx, row, decoded, historic, new Map());
}

/** What parseInbound does once the message is decoded (or found undecodable). */
export async function applyDecoded(
  ctx: AppContext,
  row: StoredMessage,
  decoded: Decoded | UndecodableMail,
  historic: boolean,
  actors: Actors,
): Promise<ParseOutcome> {
  const { id } = row;
  if (row.status !== 'received') return 'done';
  const now = ctx.clock.now();
  try {
    if (decoded instanceof UndecodableMail) {
      const error = `The message cannot be decoded: ${decoded.message}`.slice(0, 1000);
      await mark(ctx.db, id, { status: 'rejected', error, parsed_at: isoSeconds(now) });
      return 'rejected';
    }
    const { mail, found } = decoded;
    if (!found) {
      await mark(ctx.db, id, { status: 'unparsed', ...decodedHeaders(mail, now) });
      return 'unparsed';
    }
    const actor = await actorFor(ctx, actors, row);
    if (row.user_id !== null && actor.userId === row.user_id)
      found.event.person = { ...found.event.person, assignedUserId: row.user_id };
    const sentAt = isoSeconds(mail.dateMs ?? Date.parse(row.received_at));
    if (historic) found.event.occurredAt = sentAt;
    const outcome = await ingestEvent(ctx, actor, found.event, null, {
      createdVia: historic ? 'Historic Email Parsing' : 'Email Parsing',
      createdAt: historic ? sentAt : undefined,
      historical: historic,
      within: (trx, recorded) =>
        mark(trx, id, {
          status: 'parsed',
          parser: found.parser,
          person_id: recorded.personId,
          event_id: recorded.eventId,
          ...decodedHeaders(mail, now),
        }),
    });
    if (outcome.status !== 204) return outcome.status === 201 ? 'created' : 'updated';
    const error = `Leads from ${found.event.source} are not taken: its lead flow is archived`;
    await mark(ctx.db, id, {
      status: 'ignored',
      parser: found.parser,
      error,
      ...decodedHeaders(mail, now),
    });
    return 'ignored';
  } catch (err) {
    if (err instanceof AlreadyParsed) return 'done';
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    // The lead was found but POST /v1/events refused it (e.g. an unknown user): kept, with why.
    await mark(ctx.db, id, { status: 'rejected', error: err.message.slice(0, 1000) }).catch(
      () => {},
    );
    return 'rejected';
  }
}
