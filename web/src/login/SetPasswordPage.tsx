import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { choosePassword } from '../api/session';
import { AuthCard } from './AuthCard';

/** /set-password?token=…: the one page behind the owner setup, invite and reset links. */
export function SetPasswordPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [error, setError] = useState<string | null>(
    token ? null : 'This link has no token; open the link you were sent.',
  );
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    if (password !== String(form.get('confirm'))) {
      setError('The two passwords differ');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await choosePassword(token, password);
      window.location.assign('/');
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Choose your password">
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            At least 12 characters. A few words you will remember make a good one.
          </Typography>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <TextField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            fullWidth
          />
          <TextField
            label="Repeat password"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={busy || !token}>
            Save password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
