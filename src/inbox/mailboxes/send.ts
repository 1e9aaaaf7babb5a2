import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ApiError, badRequest } from '../../platform/http/errors.js';
import { escapeHtml } from '../../platform/http/html.js';
import { isEmailAddress } from '../../platform/email-address.js';
import { isoSeconds } from '../../platform/time.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { emails, insertEmail } from '../../timeline/emails/emails.repo.js';
import { presentEmail } from '../../timeline/emails/emails.presenter.js';
import { loadMergeData } from '../../marketing/templates/merge-data.js';
import { renderMergeFields } from '../../marketing/templates/merge-fields.js';
import { readableTemplate } from '../../marketing/templates/templates.repo.js';
import { htmlText } from '../../leads/inboundEmail/mime.js';
import { mailErrorMessage, openImap, smtpTransport } from './connection.js';
import { freshCredentials } from './oauth.js';
import { getOwnMailbox, type MailboxRow } from './mailboxes.repo.js';
import type { MailboxSendBody } from './mailboxes.schemas.js';
import { locateFolders } from './sync/folders.js';
import { sanitizeEmailHtml } from './sanitize.js';

type SendBody = Static<typeof MailboxSendBody>;

/** Subject and body as written, or merged from a template for this person and sender. */
async function content(ctx: AppContext, auth: AuthUser, body: SendBody) {
  let subject = body.subject ?? '';
  let text = body.body ?? '';
  let isHtml =
    body.isHtml === true || body.isHtml === 'true' || body.isHtml === 1 || body.isHtml === '1';
  if (body.templateId !== undefined) {
    const template = await readableTemplate(ctx.db, auth, body.templateId, 'email');
    const merge = await loadMergeData(ctx.db, auth.accountId, body.personId, auth.userId);
    // The sender is the agent of a message they send themselves.
    const data = {
      ...merge!.data,
      agent: {
        name: auth.name,
        email: auth.email,
        firstName: auth.name.split(' ')[0] ?? '',
        lastName: auth.name.split(' ').slice(1).join(' '),
        phone: '',
      },
    };
    // What the composer sends was the template's text, perhaps edited: its fields merge too.
    subject = renderMergeFields(body.subject ?? template.subject, data);
    const source = body.body ?? template.body;
    isHtml = /<[a-z][\s\S]*>/i.test(source);
    text = renderMergeFields(source, data, isHtml ? escapeHtml : undefined);
  }
  subject = subject.replace(/[\r\n]+/g, ' ').trim();
  if (!subject)
    throw badRequest('Give a subject (or a template that has one)', [
      { field: 'subject', message: 'is required' },
    ]);
  if (!text.trim())
    throw badRequest('Give a body (or a template that has one)', [
      { field: 'body', message: 'is required' },
    ]);
  return { subject, text, isHtml };
}

/** The recipient: one of the person's addresses (the first by default). */
async function recipient(ctx: AppContext, auth: AuthUser, body: SendBody): Promise<string> {
  const merge = await loadMergeData(ctx.db, auth.accountId, body.personId, null);
  const addresses = (merge?.data.contact?.emails ?? []).map((e) => e.value.toLowerCase());
  if (!addresses.length) throw badRequest(`Person ${body.personId} has no email address`);
  const to = body.to?.trim().toLowerCase() ?? addresses[0];
  if (!addresses.includes(to))
    throw badRequest(`${body.to} is not one of the person's addresses`, [
      { field: 'to', message: "must be one of the person's addresses" },
    ]);
  return to;
}

/** What a reply names: the email it answers and that one's conversation. */
async function replyHeaders(ctx: AppContext, auth: AuthUser, emailId: number | undefined) {
  if (emailId === undefined) return null;
  const answered = await emails.get(ctx.db, auth, emailId);
  if (!answered.message_id) throw badRequest(`Email ${emailId} has no Message-ID to answer`);
  const root =
    answered.thread_id && answered.thread_id !== answered.message_id ? [answered.thread_id] : [];
  return {
    inReplyTo: answered.message_id,
    references: [...root, answered.message_id],
    threadId: answered.thread_id ?? answered.message_id,
  };
}

/** Appends the sent message to the Sent folder; a failure is logged, the message is gone anyway. */
async function fileInSent(
  ctx: AppContext,
  mailbox: MailboxRow,
  raw: Buffer,
  credentials: Awaited<ReturnType<typeof freshCredentials>>,
) {
  try {
    const client = await openImap(ctx, mailbox, credentials);
    try {
      const sent = (await locateFolders(client)).find((f) => f.role === 'sent');
      if (sent) await client.append(sent.path, raw, ['\\Seen']);
    } finally {
      await client.logout().catch(() => client.close());
    }
  } catch (err) {
    ctx.log.warn(
      { mailboxId: mailbox.id, err: mailErrorMessage(err, 'IMAP', mailbox.imap_host) },
      'sent message not filed in Sent',
    );
  }
}

/**
 * Sends an email to a person from the caller's own mailbox over its SMTP server, appends it to
 * the Sent folder and files it on the person's timeline under its Message-ID, so the sync that
 * later sees it in Sent files nothing more.
 */
export async function sendFromMailbox(
  ctx: AppContext,
  auth: AuthUser,
  mailboxId: number,
  body: SendBody,
) {
  const mailbox = await getOwnMailbox(ctx.db, auth, mailboxId);
  await assertPersonVisible(ctx.db, auth, body.personId);
  const to = await recipient(ctx, auth, body);
  const cc = [...new Set((body.cc ?? []).map((a) => a.trim().toLowerCase()).filter(Boolean))];
  const badCc = cc.find((a) => !isEmailAddress(a));
  if (badCc)
    throw badRequest(`'${badCc}' is not an email address`, [
      { field: 'cc', message: 'must be email addresses' },
    ]);
  const { subject, text, isHtml } = await content(ctx, auth, body);
  const reply = await replyHeaders(ctx, auth, body.inReplyToEmailId);
  const domain = mailbox.address.split('@')[1];
  const messageId = `<${randomBytes(16).toString('hex')}@${domain}>`;
  const now = ctx.clock.now();
  const raw = await new MailComposer({
    from: { name: auth.name, address: mailbox.address },
    to,
    cc,
    subject,
    messageId,
    date: new Date(now),
    ...(isHtml ? { html: text, text: htmlText(text) } : { text }),
    ...(reply ? { inReplyTo: reply.inReplyTo, references: reply.references } : {}),
  })
    .compile()
    .build();
  const credentials = await freshCredentials(ctx, mailbox).catch((err: Error) => {
    throw new ApiError(409, 'MAILBOX_ERROR', err.message);
  });
  try {
    const transport = await smtpTransport(ctx, mailbox, credentials);
    try {
      await transport.sendMail({ envelope: { from: mailbox.address, to: [to, ...cc] }, raw });
    } finally {
      transport.close();
    }
  } catch (err) {
    // The mail server's refusal is the user's to fix (password, limits): not a fault of Hearth.
    throw new ApiError(
      409,
      'MAILBOX_ERROR',
      `Not sent: ${mailErrorMessage(err, 'SMTP', mailbox.smtp_host)}`,
    );
  }
  const id = await ctx.db.transaction().execute((trx) =>
    insertEmail(trx, auth.accountId, {
      personId: body.personId,
      subject,
      body: isHtml ? htmlText(text) : text,
      htmlBody: isHtml ? sanitizeEmailHtml(text) : null,
      from: mailbox.address,
      to: [to],
      cc,
      isIncoming: false,
      sentAt: isoSeconds(now),
      userId: auth.userId,
      messageId,
      threadId: reply?.threadId ?? messageId,
      mailboxId: mailbox.id,
      now,
    }),
  );
  await fileInSent(ctx, mailbox, raw, credentials);
  return presentEmail(await emails.get(ctx.db, auth, id));
}
