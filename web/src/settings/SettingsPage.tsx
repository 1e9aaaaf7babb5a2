import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useNotify, usePermissions } from 'react-admin';
import { apiFetch } from '../api/http';
import { forgetSession } from '../api/session';
import { PageHeading } from '../layout/PageHeading';
import { LeadAddressesCard } from '../leadEmails/LeadAddressesCard';
import { MailboxCard } from './MailboxCard';
import type { User } from '../api/types';

type Me = Pick<User, 'id' | 'name' | 'email'>;

function Profile({ me }: { me: Me }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      await apiFetch('/v1/me', {
        method: 'PUT',
        body: { name: String(form.get('name')), email: String(form.get('email')) },
      });
      notify('Your settings are saved', { type: 'info' });
    } catch (failure) {
      notify((failure as Error).message, { type: 'error', autoHideDuration: 10_000 });
    }
    setBusy(false);
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="profile-heading" sx={{ p: 2 }}>
      <Typography id="profile-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
        You
      </Typography>
      <form onSubmit={submit}>
        <Stack spacing={2}>
          <TextField label="Name" name="name" defaultValue={me.name} required fullWidth />
          <TextField
            label="Email"
            name="email"
            type="email"
            defaultValue={me.email}
            autoComplete="email"
            required
            fullWidth
          />
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            sx={{ alignSelf: 'flex-start' }}
          >
            Save
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function PasswordChange() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await apiFetch('/v1/me/password', {
        method: 'POST',
        body: {
          currentPassword: String(form.get('currentPassword')),
          password: String(form.get('password')),
        },
      });
      // A new password ends every session, this one too: sign in again with it.
      forgetSession();
      window.location.assign('/login?passwordChanged=1');
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="password-heading" sx={{ p: 2 }}>
      <Typography id="password-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
        Password
      </Typography>
      <form onSubmit={submit}>
        <Stack spacing={2}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <TextField
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            fullWidth
          />
          <TextField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            helperText="At least 12 characters; you will sign in again with it"
            required
            fullWidth
          />
          <Button type="submit" variant="outlined" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
            Change password
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/** /settings: your own name, email, password, lead address (the account's too for admins) and connected mailbox. */
export function SettingsPage() {
  const { permissions } = usePermissions();
  const admin = permissions === 'Owner' || permissions === 'Admin';
  const me = useQuery({
    queryKey: ['me'],
    queryFn: async () => (await apiFetch('/v1/me')).json as Me,
  });
  return (
    <>
      <PageHeading>Settings</PageHeading>
      {me.isError ? (
        <Alert severity="error" action={<Button onClick={() => me.refetch()}>Retry</Button>}>
          Could not load your settings: {(me.error as Error).message}
        </Alert>
      ) : me.data ? (
        <Stack spacing={2} sx={{ maxWidth: 560 }}>
          <Profile me={me.data} />
          <LeadAddressesCard includeAccount={admin} />
          <PasswordChange />
          <MailboxCard userId={me.data.id} />
        </Stack>
      ) : (
        <Typography role="status">Loading your settings…</Typography>
      )}
    </>
  );
}
