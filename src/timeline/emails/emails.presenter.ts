import type { EmailRow } from './emails.repo.js';

export function presentEmail(row: EmailRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    personId: row.person_id,
    subject: row.subject,
    body: row.body,
    isHtml: row.is_html === 1,
    from: row.from_address,
    to: JSON.parse(row.to_addresses) as string[],
    cc: JSON.parse(row.cc_addresses) as string[],
    isIncoming: row.is_incoming === 1,
    sentAt: row.sent_at,
    userId: row.user_id,
    system: row.system,
    messageId: row.message_id,
    threadId: row.thread_id,
    htmlBody: row.html_body,
    mailboxId: row.mailbox_id,
  };
}
