import type { AppContext } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/http/auth-user.js';
import type { DbOrTrx } from '../../../platform/db/database.js';
import { isUniqueViolation } from '../../../platform/db/dialect.js';
import { isoSeconds } from '../../../platform/time.js';
import { visiblePersonIds } from '../../../access/visibility.js';
import { insertEmail } from '../../../timeline/emails/emails.repo.js';
import type { ParsedMail } from 'mailparser';
import { mailOf } from '../../../leads/inboundEmail/mime.js';
import { decodedLead } from '../../../leads/inboundEmail/decoded.js';
import type { Decoded } from '../../../leads/inboundEmail/parse-pool.js';
import { insertInbound } from '../../../leads/inboundEmail/store.js';
import { parseInbound } from '../../../leads/inboundEmail/parse.js';
import type { MailMessage } from './message.js';

/** Who a mailbox files as, and whose addresses are not customers. */
export interface Filer {
  mailboxId: number;
  address: string;
  actor: AuthUser;
  /** every user's and every connected mailbox's address in the account */
  colleagues: Set<string>;
}

export type Folder = 'inbox' | 'sent';

/** The conversation a message belongs to: a known message it answers, else the first it names. */
export async function threadOf(db: DbOrTrx, accountId: number, msg: MailMessage) {
  if (!msg.references.length) return msg.messageId;
  const known = await db
    .selectFrom('emails')
    .select('thread_id')
    .where('account_id', '=', accountId)
    .where('message_id', 'in', msg.references)
    .where('thread_id', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return known?.thread_id ?? msg.references[0];
}

/** The addresses on the other side of a message: never the mailbox's own, never a colleague's. */
function counterparts(filer: Filer, msg: MailMessage, incoming: boolean): string[] {
  const all = incoming
    ? [...(msg.from ? [msg.from] : []), ...msg.to, ...msg.cc]
    : [...msg.to, ...msg.cc, ...msg.bcc];
  return [...new Set(all)].filter((a) => a !== filer.address && !filer.colleagues.has(a));
}

/** The people with one of these addresses that the mailbox's user may see. */
async function visiblePeopleWith(db: DbOrTrx, actor: AuthUser, emails: string[]) {
  if (!emails.length) return [];
  const rows = await db
    .selectFrom('person_emails')
    .select('person_id')
    .distinct()
    .where('account_id', '=', actor.accountId)
    .where('email', 'in', emails)
    .where('person_id', 'in', visiblePersonIds(db, actor))
    .orderBy('person_id')
    .limit(50)
    .execute();
  return rows.map((r) => r.person_id);
}

/**
 * Files one message on the timeline of each person it was from or to whom the mailbox's user
 * may see, once per person (the unique index on the Message-ID holds a race between two
 * mailboxes); each in its own transaction with its `emailsCreated` outbox row. Mail between
 * colleagues and bulk mail stay out. Answers how many emails were made.
 */
export async function fileMessage(
  ctx: AppContext,
  filer: Filer,
  msg: MailMessage,
  folder: Folder,
): Promise<{ filed: number; matched: boolean }> {
  const incoming = folder === 'inbox' && msg.from !== filer.address;
  const others = counterparts(filer, msg, incoming);
  if (msg.bulk || !others.length) return { filed: 0, matched: false };
  const { accountId } = filer.actor;
  const people = await visiblePeopleWith(ctx.db, filer.actor, others);
  if (!people.length) return { filed: 0, matched: false };
  const threadId = await threadOf(ctx.db, accountId, msg);
  let filed = 0;
  for (const personId of people) {
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const held = await trx
          .selectFrom('emails')
          .select('id')
          .where('account_id', '=', accountId)
          .where('person_id', '=', personId)
          .where('message_id', '=', msg.messageId)
          .executeTakeFirst();
        if (held) return;
        await insertEmail(trx, accountId, {
          personId,
          subject: msg.subject,
          body: msg.text,
          isHtml: false,
          htmlBody: msg.html || null,
          from: msg.from ?? '',
          to: msg.to,
          cc: msg.cc,
          isIncoming: incoming,
          sentAt: msg.date ? isoSeconds(msg.date.getTime()) : null,
          userId: filer.actor.userId,
          messageId: msg.messageId,
          threadId,
          mailboxId: filer.mailboxId,
          now: ctx.clock.now(),
        });
        filed++;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  return { filed, matched: true };
}

/**
 * A received message that is no customer's conversation may be a lead notification: when a
 * parser reads one, it is kept with the lead emails and goes the way of leads by email, as
 * history (`Historic Email Parsing`, at its date) on the first sync and live afterwards, assigned
 * to the mailbox's user. A repeat of a Message-ID the account has is not parsed again.
 */
export async function parseLeadIn(
  ctx: AppContext,
  filer: Filer,
  raw: Buffer,
  parsed: ParsedMail,
  from: string | null,
  historic: boolean,
): Promise<boolean> {
  let decoded: Decoded;
  try {
    decoded = await decodedLead(mailOf(parsed));
  } catch {
    return false; // a message the lead parsers cannot read is no lead
  }
  if (!decoded.found) return false;
  const id = await ctx.db.transaction().execute((trx) =>
    insertInbound(trx, {
      accountId: filer.actor.accountId,
      userId: filer.actor.userId,
      raw,
      mailFrom: from ?? '',
      rcptTo: filer.address,
      receivedAt: isoSeconds(ctx.clock.now()),
    }),
  );
  if (id === null) return false;
  // Parsed from the decoding above: the message is not decoded again.
  const outcome = await parseInbound(ctx, id, historic, decoded);
  return outcome === 'created' || outcome === 'updated';
}
