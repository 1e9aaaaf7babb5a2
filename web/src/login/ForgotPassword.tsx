import { useState, type FormEvent } from 'react';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import { apiFetch } from '../api/http';

/**
 * "Forgot password?" under the sign-in form: asks for the email and sends the reset link when the
 * server can email; otherwise says an Owner resets passwords from the Users screen.
 */
export function ForgotPassword() {
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('resetEmail')).trim();
    setError(null);
    try {
      const { json } = await apiFetch('/auth/forgot', { method: 'POST', body: { email } });
      setAnswer(
        (json as { emailsLinks: boolean }).emailsLinks
          ? `If ${email} belongs to a user, a link to choose a new password is on its way (it works for an hour).`
          : 'This Hearth cannot send email. Ask an Owner of your account to reset your password from the Users screen in Admin.',
      );
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  if (!open)
    return (
      <Link component="button" type="button" onClick={() => setOpen(true)} sx={{ mt: 2 }}>
        Forgot password?
      </Link>
    );
  if (answer)
    return (
      <Alert severity="info" role="status" sx={{ mt: 2 }}>
        {answer}
      </Alert>
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2} sx={{ mt: 3 }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <TextField
          label="Your email"
          name="resetEmail"
          type="email"
          autoComplete="username"
          required
          fullWidth
        />
        <Button type="submit" variant="outlined">
          Send reset link
        </Button>
      </Stack>
    </form>
  );
}
