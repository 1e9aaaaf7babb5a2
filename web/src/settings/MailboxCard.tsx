import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import type { Mailbox } from '../api/types';
import { ConfirmDialog } from '../admin/ConfirmDialog';
import { MailboxSignIn } from './MailboxSignIn';

const STATUS: Record<
  Mailbox['status'],
  { label: string; color: 'default' | 'info' | 'success' | 'error' }
> = {
  connecting: { label: 'Connecting', color: 'info' },
  syncing: { label: 'Reading your recent mail', color: 'info' },
  ok: { label: 'Connected', color: 'success' },
  error: { label: 'Needs attention', color: 'error' },
};

export const myMailboxesKey = ['mailboxes', 'mine'];

/** The signed-in user's own mailboxes (an Owner's list holds everyone's: keep only theirs). */
export async function loadMyMailboxes(userId: number): Promise<Mailbox[]> {
  const { json } = await apiFetch(`/v1/mailboxes?userId=${userId}`);
  return (json as { mailboxes: Mailbox[] }).mailboxes.filter((m) => m.userId === userId);
}

function ConnectForm({ onDone }: { onDone: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [imapTls, setImapTls] = useState(true);
  const [smtpTls, setSmtpTls] = useState(true);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const get = (name: string) => String(f.get(name) ?? '').trim();
    const username = get('username') || get('address');
    const password = String(f.get('password') ?? '');
    setBusy(true);
    setError(null);
    try {
      const { json } = await apiFetch('/v1/mailboxes', {
        method: 'POST',
        body: {
          address: get('address'),
          imap: {
            host: get('imapHost'),
            port: Number(get('imapPort')),
            secure: imapTls,
            username,
            password,
          },
          smtp: {
            host: get('smtpHost'),
            port: Number(get('smtpPort')),
            secure: smtpTls,
            username,
            password,
          },
        },
      });
      const made = json as Mailbox;
      if (made.status === 'error')
        setError(
          `Saved, but ${made.error ?? 'the mail server failed'}. Disconnect it and try again with other settings.`,
        );
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
    }
    setBusy(false);
  };
  return (
    <form onSubmit={submit} aria-label="Connect a mailbox">
      <Stack spacing={2}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <TextField label="Mailbox address" name="address" type="email" required fullWidth />
        <TextField
          label="Mail login"
          name="username"
          helperText="Usually your email address (left empty, it is)"
          fullWidth
        />
        <TextField
          label="App password"
          name="password"
          type="password"
          autoComplete="off"
          helperText="Make one in your mail provider's security settings; your sign-in password often will not work"
          required
          fullWidth
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label="IMAP server"
            name="imapHost"
            placeholder="imap.example.com"
            required
            sx={{ flex: 2 }}
          />
          <TextField
            label="IMAP port"
            name="imapPort"
            type="number"
            defaultValue={993}
            required
            sx={{ flex: 1 }}
          />
        </Stack>
        <FormControlLabel
          control={<Switch checked={imapTls} onChange={(e) => setImapTls(e.target.checked)} />}
          label="IMAP over TLS (off: STARTTLS)"
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label="SMTP server"
            name="smtpHost"
            placeholder="smtp.example.com"
            required
            sx={{ flex: 2 }}
          />
          <TextField
            label="SMTP port"
            name="smtpPort"
            type="number"
            defaultValue={465}
            required
            sx={{ flex: 1 }}
          />
        </Stack>
        <FormControlLabel
          control={<Switch checked={smtpTls} onChange={(e) => setSmtpTls(e.target.checked)} />}
          label="SMTP over TLS (off: STARTTLS)"
        />
        <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
          {busy ? 'Testing…' : 'Connect mailbox'}
        </Button>
      </Stack>
    </form>
  );
}

function MailboxRow({ mailbox, onDisconnect }: { mailbox: Mailbox; onDisconnect: () => void }) {
  const status = STATUS[mailbox.status];
  return (
    <Box
      component="li"
      sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {mailbox.address}
        </Typography>
        <Chip size="small" label={status.label} color={status.color} />
        <Box sx={{ flex: 1 }} />
        <Button color="error" onClick={onDisconnect}>
          Disconnect
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {mailbox.lastSyncAt
          ? `Last sync ${new Date(mailbox.lastSyncAt).toLocaleString()}`
          : 'Not synced yet'}{' '}
        · {mailbox.imap.host}
      </Typography>
      {mailbox.error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {mailbox.error}
        </Alert>
      ) : null}
    </Box>
  );
}

/** Settings: connect your mailbox, see its status and last sync, disconnect it. */
export function MailboxCard({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState<Mailbox | null>(null);
  const boxes = useQuery({
    queryKey: myMailboxesKey,
    queryFn: () => loadMyMailboxes(userId),
    // While a mailbox connects or reads its history, its status changes by itself.
    refetchInterval: (query) =>
      (query.state.data ?? []).some((m) => m.status === 'connecting' || m.status === 'syncing')
        ? 3000
        : false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: myMailboxesKey });
  const disconnect = async () => {
    if (!leaving) return;
    await apiFetch(`/v1/mailboxes/${leaving.id}`, { method: 'DELETE' });
    setLeaving(null);
    await refresh();
  };
  const list = boxes.data ?? [];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="mailbox-heading" sx={{ p: 2 }}>
      <Typography id="mailbox-heading" variant="h6" component="h2">
        Mailbox
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Connect your work mailbox: conversations with your people appear on their timelines, and you
        can email them from their page. Mail with colleagues and newsletters stays out.
      </Typography>
      {boxes.isError ? <Alert severity="error">{(boxes.error as Error).message}</Alert> : null}
      {list.length ? (
        <Box component="ul" aria-label="Connected mailboxes" sx={{ m: 0, p: 0, mb: 2 }}>
          {list.map((m) => (
            <MailboxRow key={m.id} mailbox={m} onDisconnect={() => setLeaving(m)} />
          ))}
        </Box>
      ) : null}
      {boxes.isSuccess ? <MailboxSignIn offer={list.length === 0} /> : null}
      {boxes.isSuccess && list.length === 0 ? <ConnectForm onDone={refresh} /> : null}
      {leaving ? (
        <ConfirmDialog
          titleId="disconnect-mailbox"
          title={`Disconnect ${leaving.address}?`}
          confirm="Disconnect"
          onConfirm={disconnect}
          onClose={() => setLeaving(null)}
        >
          Hearth stops reading this mailbox and forgets its password. The emails already filed on
          your people&apos;s timelines are kept.
        </ConfirmDialog>
      ) : null}
    </Paper>
  );
}
