import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Box, Checkbox, FormControlLabel, Typography } from '@mui/material';
import BoltIcon from '@mui/icons-material/Bolt';
import HomeIcon from '@mui/icons-material/Home';
import StickyNote2Icon from '@mui/icons-material/StickyNote2';
import PhoneIcon from '@mui/icons-material/Phone';
import SmsIcon from '@mui/icons-material/Sms';
import EmailIcon from '@mui/icons-material/Email';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import EventIcon from '@mui/icons-material/Event';
import HandshakeIcon from '@mui/icons-material/Handshake';
import PeopleIcon from '@mui/icons-material/People';
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay';
import ForumIcon from '@mui/icons-material/Forum';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { NoteItem } from './NoteItem';
import { EmailConversation, type EmailMessage } from './EmailConversation';
import { day, money, seconds, when } from './format';
import type { TimelineEntry, TimelineKind, TimelineRecord } from './timeline.data';

const ICONS: Record<TimelineKind, ReactNode> = {
  event: <BoltIcon />,
  note: <StickyNote2Icon />,
  call: <PhoneIcon />,
  text: <SmsIcon />,
  email: <EmailIcon />,
  task: <TaskAltIcon />,
  appointment: <EventIcon />,
  deal: <HandshakeIcon />,
  relationship: <PeopleIcon />,
  actionPlan: <PlaylistPlayIcon />,
  inboxMessage: <ForumIcon />,
  change: <SwapHorizIcon />,
};

type R = TimelineRecord & Record<string, unknown>;
const s = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const joined = (...parts: unknown[]) => parts.map(s).filter(Boolean).join(' · ');

function PropertyLine({ property }: { property: unknown }) {
  if (!property || typeof property !== 'object') return null;
  const p = property as Record<string, unknown>;
  const place = joined(p.street, p.city, p.state, p.code);
  const facts = joined(
    money(p.price),
    p.bedrooms && `${s(p.bedrooms)} bd`,
    p.bathrooms && `${s(p.bathrooms)} ba`,
  );
  return (
    <Typography
      variant="body2"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}
    >
      <HomeIcon fontSize="inherit" aria-hidden />
      {place}
      {facts ? ` — ${facts}` : ''}
      {p.url ? (
        <>
          {' '}
          <a href={s(p.url)} target="_blank" rel="noreferrer noopener">
            listing
          </a>
        </>
      ) : null}
    </Typography>
  );
}

/** Files and rich objects an inbox app hosts: links only, the browser loads nothing until clicked. */
function InboxLinks({ record }: { record: R }) {
  const files = Array.isArray(record.attachments)
    ? (record.attachments as { filename?: unknown; url?: unknown }[])
    : [];
  const rich = Array.isArray(record.richObjects) ? (record.richObjects as unknown[]) : [];
  const links = [
    ...files.map((f) => ({ href: s(f.url), label: s(f.filename) || s(f.url) })),
    ...rich.map((u) => ({ href: s(u), label: s(u) })),
  ].filter((l) => l.href.startsWith('https://'));
  if (links.length === 0) return null;
  return (
    <Box component="ul" aria-label="Attachments" sx={{ m: 0, pl: 2.5 }}>
      {links.map((l, i) => (
        <Typography key={i} component="li" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          <a href={l.href} target="_blank" rel="noreferrer noopener">
            {l.label}
          </a>
        </Typography>
      ))}
    </Box>
  );
}

function inboxTitle(r: R): string {
  const what =
    r.type === 'note' ? 'Conversation note' : r.isIncoming ? 'Message received' : 'Message sent';
  return joined(what, r.conversationSubject || r.externalConversationId);
}

function describe(
  kind: TimelineKind,
  r: R,
  onTaskToggle: (task: R) => void,
): { title: string; body?: ReactNode } {
  switch (kind) {
    case 'event':
      return {
        title: joined(r.type, r.source),
        body: (
          <>
            <PropertyLine property={r.property} />
            {r.message ? (
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{s(r.message)}</Typography>
            ) : null}
            {r.description ? <Typography variant="body2">{s(r.description)}</Typography> : null}
          </>
        ),
      };
    case 'note':
      return { title: `Note by ${s(r.createdBy) || 'someone'}`, body: <NoteItem note={r} /> };
    case 'call':
      return {
        title: joined(
          r.isIncoming ? 'Incoming call' : 'Outgoing call',
          r.outcome,
          seconds(r.duration),
        ),
        body: r.note ? (
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{s(r.note)}</Typography>
        ) : undefined,
      };
    case 'text':
      return {
        title: r.isIncoming ? 'Text received' : 'Text sent',
        body: <Typography sx={{ whiteSpace: 'pre-wrap' }}>{s(r.message)}</Typography>,
      };
    case 'email': {
      const count = Array.isArray(r.messages) ? r.messages.length : 1;
      return {
        title: joined(
          count > 1
            ? `Conversation, ${count} emails`
            : r.isIncoming
              ? 'Email received'
              : 'Email sent',
          r.subject,
        ),
        body: <EmailConversation record={r as EmailMessage} />,
      };
    }
    case 'task':
      return {
        title: joined('Task', r.type, r.dueDate ? `due ${day(r.dueDate)}` : ''),
        body: (
          <FormControlLabel
            control={<Checkbox checked={Boolean(r.isCompleted)} onChange={() => onTaskToggle(r)} />}
            label={s(r.name)}
          />
        ),
      };
    case 'appointment':
      return {
        title: joined('Appointment', r.title),
        body: <Typography variant="body2">{joined(when(r.start), r.location)}</Typography>,
      };
    case 'deal':
      return {
        title: joined('Deal', r.name),
        body: (
          <Typography variant="body2">
            {joined(r.pipelineName, r.stageName, money(r.price), r.status)} —{' '}
            <Link to="/deals">board</Link>
          </Typography>
        ),
      };
    case 'relationship':
      return { title: joined('Relationship', r.type), body: <Typography>{s(r.name)}</Typography> };
    case 'inboxMessage': {
      const sender = (r.sender ?? {}) as Record<string, unknown>;
      return {
        title: inboxTitle(r),
        body: (
          <>
            <Typography variant="body2" color="text.secondary">
              {joined(
                `Inbox app ${s(r.inboxAppId)}`,
                sender.name && `${r.type === 'note' ? 'by' : 'from'} ${s(sender.name)}`,
                r.deliveryStatus,
              )}
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-wrap' }}>{s(r.message)}</Typography>
            {r.deliveryStatusErrorMessage ? (
              <Typography variant="body2" color="error">
                {s(r.deliveryStatusErrorMessage)}
              </Typography>
            ) : null}
            <InboxLinks record={r} />
          </>
        ),
      };
    }
    case 'change':
      return {
        title: `${r.field === 'stage' ? 'Stage' : 'Agent'}: ${s(r.from) || 'none'} → ${s(r.to) || 'none'}`,
        body: <Typography variant="body2">by {s(r.userName)}</Typography>,
      };
    case 'actionPlan':
      return {
        title: joined('Action plan', r.actionPlanName),
        body: (
          <Typography variant="body2">
            {joined(r.status, `${s(r.stepsCompleted) || 0} steps done`)}
          </Typography>
        ),
      };
  }
}

export function TimelineItem({
  entry,
  onTaskToggle,
}: {
  entry: TimelineEntry;
  onTaskToggle: (task: R) => void;
}) {
  const { title, body } = describe(entry.kind, entry.record as R, onTaskToggle);
  return (
    <Box
      component="li"
      sx={{ display: 'flex', gap: 1.5, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
    >
      <Box sx={{ color: 'primary.main', pt: 0.25 }} aria-hidden>
        {ICONS[entry.kind]}
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="subtitle2" component="h3">
          {title}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          {when(entry.at)}
        </Typography>
        {body}
      </Box>
    </Box>
  );
}
