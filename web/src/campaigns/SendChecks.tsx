import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { currentSession } from '../api/session';
import { previewSend, sendTest, type PersonOption } from './api';

export type Target = { smartListId: number } | { personIds: number[] };

export const people = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'person' : 'people'}`;

/** The recipients a send to `target` would have now (asked again when the target changes). */
export function useRecipientCount(campaignId: number, target: Target | null) {
  return useQuery({
    queryKey: ['sendPreview', campaignId, target],
    queryFn: () => previewSend(campaignId, target!),
    enabled: target !== null,
    staleTime: 5_000,
  });
}

/** Who the email comes from (the signed-in user, as the sender writes it), and where to change it. */
export function FromLine() {
  const user = currentSession()?.user;
  if (!user) return null;
  return (
    <Typography variant="body2">
      <Box component="span" sx={{ color: 'text.secondary' }}>
        From:{' '}
      </Box>
      {user.name} &lt;{user.email}&gt; ·{' '}
      <RouterLink to="/settings" style={{ color: 'inherit' }}>
        change your name or address
      </RouterLink>
    </Typography>
  );
}

/** Sends the campaign as it is now to the user's own inbox, merged for the preview's person. */
export function TestSend({
  campaignId,
  person,
}: {
  campaignId: number;
  person: PersonOption | null;
}) {
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function send() {
    setBusy(true);
    setState(null);
    try {
      const sent = await sendTest(campaignId, person?.id);
      setState({ ok: true, text: `Test sent to ${sent.to}` });
    } catch (failure) {
      setState({ ok: false, text: `Test not sent: ${(failure as Error).message}` });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Button variant="outlined" onClick={() => void send()} disabled={busy}>
        {busy ? 'Sending test…' : 'Send test to me'}
      </Button>
      {person ? (
        <Typography variant="caption" color="text.secondary">
          Merged for {person.name}, as in the preview
        </Typography>
      ) : null}
      {state ? (
        <Alert severity={state.ok ? 'success' : 'error'} role={state.ok ? 'status' : 'alert'}>
          {state.text}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** "Send to 2 people?": the last look before a send, naming the count, the sender and when. */
export function ConfirmSend({
  open,
  count,
  from,
  later,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  count: number;
  from: string | null;
  later: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const action = later ? `Schedule for ${people(count)}` : `Send to ${people(count)}`;
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="confirm-send-title">
      <DialogTitle id="confirm-send-title">
        {later
          ? `Schedule this email to ${people(count)}?`
          : `Send this email to ${people(count)} now?`}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>
          {from ? `It comes from ${from}. ` : ''}
          {later ? `It goes out ${later}. ` : 'It goes out at once. '}
          People without an email address, or who unsubscribed or bounced before, are skipped.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={onConfirm} autoFocus>
          {action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
