import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack, TextField } from '@mui/material';
import { signIn } from '../api/session';
import { safeNextPath } from '../api/next-path';
import { AuthCard } from './AuthCard';
import { ForgotPassword } from './ForgotPassword';

/** /login: Email, Password, Sign in. A failure shows an alert and stays; success loads `next`. */
export function LoginPage() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = new URLSearchParams(window.location.search).has('passwordChanged');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await signIn(String(form.get('email')), String(form.get('password')));
      const next = new URLSearchParams(window.location.search).get('next');
      window.location.assign(safeNextPath(next, window.location.origin));
    } catch (failure) {
      setError((failure as Error).message || 'Sign-in failed');
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Sign in">
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {changed ? (
            <Alert severity="success">Your password is changed: sign in with the new one.</Alert>
          ) : null}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            fullWidth
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Sign in
          </Button>
        </Stack>
      </form>
      <ForgotPassword />
    </AuthCard>
  );
}
