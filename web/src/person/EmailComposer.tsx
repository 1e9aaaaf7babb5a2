import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import EmailIcon from '@mui/icons-material/Email';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { currentSession } from '../api/session';
import { loadMyMailboxes, myMailboxesKey } from '../settings/MailboxCard';
import { timelineKey } from './timeline.data';

interface Template {
  id: number;
  name: string;
  subject: string;
  body: string;
}

interface Props {
  person: { id: number | string; name?: string; emails?: { value: string }[] };
  /** a reply: the email answered and its subject */
  replyTo?: { emailId: number; subject: string };
  onClose: () => void;
}

/** The composer: from your mailbox, to one of the person's addresses, a template or your own words. */
export function EmailComposerDialog({ person, replyTo, onClose }: Props) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const userId = currentSession()?.user.id ?? 0;
  const mailboxes = useQuery({ queryKey: myMailboxesKey, queryFn: () => loadMyMailboxes(userId) });
  const templates = useQuery({
    queryKey: ['templates', 'email'],
    queryFn: () => fetchAll<Template>('/v1/templates?limit=100'),
  });
  const addresses = (person.emails ?? []).map((e) => e.value);
  const [templateId, setTemplateId] = useState('');
  const [subject, setSubject] = useState(
    replyTo ? `Re: ${replyTo.subject.replace(/^re:\s*/i, '')}` : '',
  );
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mailbox = mailboxes.data?.[0];
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));

  const pickTemplate = (id: string) => {
    setTemplateId(id);
    const template = templates.data?.find((t) => String(t.id) === id);
    if (template) {
      setSubject(template.subject);
      setBody(template.body);
    }
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!mailbox) return;
    const f = new FormData(event.currentTarget);
    const cc = String(f.get('cc') ?? '')
      .split(/[,;\s]+/)
      .filter(Boolean);
    setBusy(true);
    setError(null);
    try {
      await apiFetch(`/v1/mailboxes/${mailbox.id}/send`, {
        method: 'POST',
        body: {
          personId: Number(person.id),
          to: String(f.get('to')),
          cc,
          subject,
          body,
          ...(templateId ? { templateId: Number(templateId) } : {}),
          ...(replyTo ? { inReplyToEmailId: replyTo.emailId } : {}),
        },
      });
      notify('Email sent', { type: 'info' });
      await queryClient.invalidateQueries({ queryKey: timelineKey(Number(person.id)) });
      onClose();
    } catch (failure) {
      setError((failure as Error).message);
    }
    setBusy(false);
  }

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="email-composer"
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
    >
      <form onSubmit={submit}>
        <DialogTitle id="email-composer">Email {person.name || 'this person'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error ? <Alert severity="error">{error}</Alert> : null}
            {mailboxes.isSuccess && !mailbox ? (
              <Alert severity="info">
                Connect your mailbox in <RouterLink to="/settings">Settings</RouterLink> to email
                people from Hearth.
              </Alert>
            ) : null}
            {mailbox ? <TextField label="From" value={mailbox.address} disabled fullWidth /> : null}
            {addresses.length === 0 ? (
              <Alert severity="warning">This person has no email address.</Alert>
            ) : (
              <TextField select label="To" name="to" defaultValue={addresses[0]} fullWidth>
                {addresses.map((a) => (
                  <MenuItem key={a} value={a}>
                    {a}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField label="Cc" name="cc" placeholder="name@example.com, …" fullWidth />
            {!replyTo ? (
              <TextField
                select
                label="Template"
                value={templateId}
                onChange={(e) => pickTemplate(e.target.value)}
                helperText="Merge fields such as {{contact.firstName}} are filled in when sent"
                fullWidth
              >
                <MenuItem value="">No template</MenuItem>
                {(templates.data ?? []).map((t) => (
                  <MenuItem key={t.id} value={String(t.id)}>
                    {t.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
            <TextField
              label="Subject"
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
              required
              fullWidth
            />
            <TextField
              label="Message"
              value={body}
              onChange={(e) => setBody(e.target.value)}
              required
              multiline
              minRows={6}
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !mailbox || !addresses.length}
          >
            {busy ? 'Sending…' : 'Send'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The person page's **Email** button. */
export function EmailButton({ person }: { person: Props['person'] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        startIcon={<EmailIcon />}
        onClick={() => setOpen(true)}
      >
        Email
      </Button>
      {open ? <EmailComposerDialog person={person} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
