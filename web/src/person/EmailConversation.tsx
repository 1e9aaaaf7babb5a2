import { useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { plainText, when } from './format';
import type { Email } from '../api/types';
import type { TimelineEntry, TimelineRecord } from './timeline.data';
import { EmailComposerDialog } from './EmailComposer';
import { EmailHtml } from './EmailHtml';

/** An email on the timeline, as GET /v1/emails answers it. */
export type EmailMessage = Email & TimelineRecord;

/**
 * One entry per conversation: emails that share a thread (Message-ID/References) collapse into
 * the newest one's place, carrying the others as `messages`, oldest first.
 */
export function groupConversations(entries: TimelineEntry[]): TimelineEntry[] {
  const threads = new Map<string, EmailMessage[]>();
  for (const e of entries) {
    const thread = e.kind === 'email' ? (e.record as EmailMessage).threadId : null;
    if (thread) threads.set(thread, [...(threads.get(thread) ?? []), e.record as EmailMessage]);
  }
  const placed = new Set<string>();
  const out: TimelineEntry[] = [];
  for (const e of entries) {
    const thread = e.kind === 'email' ? (e.record as EmailMessage).threadId : null;
    if (!thread) {
      out.push(e);
      continue;
    }
    if (placed.has(thread)) continue;
    placed.add(thread);
    const messages = [...threads.get(thread)!].reverse();
    // Titled by how it began; the newest message sets its place in time.
    out.push({ ...e, record: { ...e.record, subject: messages[0].subject, messages } });
  }
  return out;
}

/** The message's HTML: the mailbox's sanitised part, or a body an integration posted as HTML. */
const htmlOf = (message: EmailMessage) =>
  message.htmlBody || (message.isHtml && message.body ? message.body : null);

function Message({ message }: { message: EmailMessage }) {
  const html = htmlOf(message);
  const sender = message.isIncoming ? message.from : 'you';
  return (
    <Box component="li" sx={{ py: 1, borderTop: 1, borderColor: 'divider', listStyle: 'none' }}>
      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {message.isIncoming ? message.from : `You to ${(message.to ?? []).join(', ')}`}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p">
        {when(message.sentAt ?? message.created)}
      </Typography>
      {html ? (
        <EmailHtml html={html} title={`Message from ${sender}: ${message.subject ?? ''}`} />
      ) : (
        <Typography
          variant="body2"
          sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 0.5 }}
        >
          {plainText(message.body, message.isHtml)}
        </Typography>
      )}
    </Box>
  );
}

/** A conversation, collapsed to its last message's first lines; expanded, every message in full. */
export function EmailConversation({
  record,
}: {
  record: EmailMessage & { messages?: EmailMessage[] };
}) {
  const [open, setOpen] = useState(false);
  const [replying, setReplying] = useState(false);
  const messages = record.messages ?? [record];
  const last = messages[messages.length - 1];
  const count = messages.length;
  return (
    <Box>
      {open ? (
        <Box component="ol" aria-label="Messages" sx={{ m: 0, p: 0 }}>
          {messages.map((m) => (
            <Message key={m.id} message={m} />
          ))}
        </Box>
      ) : (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ whiteSpace: 'pre-wrap', maxHeight: 60, overflow: 'hidden' }}
        >
          {plainText(last.body, last.isHtml).slice(0, 300)}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1, mt: 0.5 }}>
        <Button size="small" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Collapse' : count > 1 ? `Show ${count} messages` : 'Read'}
        </Button>
        {last.messageId ? (
          <Button size="small" onClick={() => setReplying(true)}>
            Reply
          </Button>
        ) : null}
      </Box>
      {replying ? <ReplyDialog record={last} onClose={() => setReplying(false)} /> : null}
    </Box>
  );
}

function ReplyDialog({ record, onClose }: { record: EmailMessage; onClose: () => void }) {
  const person = { id: record.personId ?? 0, emails: personAddresses(record) };
  return (
    <EmailComposerDialog
      person={person}
      replyTo={{ emailId: record.id, subject: record.subject ?? '' }}
      onClose={onClose}
    />
  );
}

/** The person's side of the message: whom a reply goes to. */
function personAddresses(record: EmailMessage) {
  const theirs = record.isIncoming ? [record.from ?? ''] : (record.to ?? []);
  return theirs.filter(Boolean).map((value) => ({ value }));
}
