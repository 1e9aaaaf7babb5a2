import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import type { EventInput } from '../events/events.prepare.js';
import { ingestEvent } from '../events/events.service.js';
import { isoSeconds } from '../../platform/time.js';
import { findInbound, presentInbound } from './inbound.repo.js';
import { printable, readMail } from './mime.js';
import { AlreadyParsed, mark } from './parse.js';
import { COMMON_LABELS, labelledFields } from './parsers/fields.js';
import { unwrapForwards } from './parsers/forwarded.js';
import { domainOf, emailIn, phoneIn } from './parsers/lead.js';

/** What the review screen shows of one message: as plain text only, never its HTML. */
const MAX_SHOWN_TEXT = 50_000;
const OPEN = ['received', 'unparsed', 'rejected', 'ignored'] as const;

export async function inboundDetail(ctx: AppContext, accountId: number, id: number) {
  const row = await findInbound(ctx.db, accountId, id);
  if (!row) throw notFound(`Inbound email ${id}`);
  if (row.raw_purged_at)
    return {
      ...presentInbound(row),
      text: `The raw message was purged on ${row.raw_purged_at.slice(0, 10)} (HEARTH_INBOUND_RETENTION_DAYS); what was read of it is kept.`,
      suggestion: {},
    };
  const mail = await readMail(row.raw).catch(() => null);
  const original = mail && (await unwrapForwards(mail));
  const fields = original ? labelledFields(original.text, COMMON_LABELS) : {};
  const contact = original?.replyTo ?? original?.from;
  const suggestion = {
    name: fields.name ?? (fields.firstName ? undefined : contact?.name || undefined),
    firstName: fields.firstName,
    lastName: fields.lastName,
    email: emailIn(fields.email) ?? contact?.address,
    phone: phoneIn(fields.phone),
    address: fields.address,
    message: fields.message,
    source: fields.source ?? (domainOf(original?.from?.address) || undefined),
  };
  return {
    ...presentInbound(row),
    text: printable(mail?.text ?? row.raw.toString('latin1')).slice(0, MAX_SHOWN_TEXT),
    suggestion,
  };
}

/** A lead made by hand from a message no parser read; the message is then `parsed` (manual). */
export async function leadFromInbound(
  ctx: AppContext,
  auth: AuthUser,
  id: number,
  body: EventInput,
): Promise<{ personId: number; status: 200 | 201 } | null> {
  const row = await findInbound(ctx.db, auth.accountId, id);
  if (!row) throw notFound(`Inbound email ${id}`);
  if (row.status === 'parsed') throw conflict(`Inbound email ${id} is a lead already`);
  try {
    const outcome = await ingestEvent(ctx, auth, body, null, {
      createdVia: 'Email Parsing',
      within: (trx, recorded) =>
        mark(
          trx,
          id,
          {
            status: 'parsed',
            parser: 'manual',
            person_id: recorded.personId,
            event_id: recorded.eventId,
            error: null,
            parsed_at: isoSeconds(ctx.clock.now()),
          },
          [...OPEN],
        ),
    });
    return outcome.status === 204 ? null : { personId: outcome.personId, status: outcome.status };
  } catch (err) {
    if (err instanceof AlreadyParsed) throw conflict(`Inbound email ${id} is a lead already`);
    throw err;
  }
}

export async function ignoreInbound(ctx: AppContext, accountId: number, id: number) {
  const row = await findInbound(ctx.db, accountId, id);
  if (!row) throw notFound(`Inbound email ${id}`);
  if (row.status === 'parsed')
    throw conflict(`Inbound email ${id} is a lead: it cannot be ignored`);
  await mark(ctx.db, id, { status: 'ignored', parsed_at: isoSeconds(ctx.clock.now()) }, [
    ...OPEN,
  ]).catch((err: unknown) => {
    throw err instanceof AlreadyParsed ? conflict(`Inbound email ${id} became a lead`) : err;
  });
  return presentInbound({ ...row, status: 'ignored' });
}
