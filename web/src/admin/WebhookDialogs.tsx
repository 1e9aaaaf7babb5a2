import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchPage } from '../api/lists';
import { EVENT_NAMES } from '../../../src/accounts/webhooks/event-names';
import { ConfirmDialog } from './ConfirmDialog';
import { usePhone, useApiAction } from './kit';
import { PlainTable } from './PlainTable';
import type { Webhook, WebhookAttempt as Attempt } from '../api/types';

export const WEBHOOKS_KEY = 'webhooks';

/**
 * Register or change a webhook. Deliveries are signed with the system's key, so the API asks for
 * it (X-System-Key) on every registration or change: it is typed here, sent with that one request
 * and forgotten with the dialog. It is never put in storage a script could read later.
 */
export function WebhookFormDialog({
  system,
  webhook,
  onClose,
}: {
  system: string;
  webhook?: Webhook;
  onClose: () => void;
}) {
  const phone = usePhone();
  const act = useApiAction([WEBHOOKS_KEY, 'admin']);
  const [form, setForm] = useState({
    event: webhook?.event ?? 'peopleCreated',
    url: webhook?.url ?? 'https://',
    status: webhook?.status ?? 'Active',
  });
  const [systemKey, setSystemKey] = useState('');
  const [busy, setBusy] = useState(false);
  const title = webhook ? `Edit webhook ${webhook.id}` : 'New webhook';
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm({ ...form, [field]: event.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const headers = { 'X-System': system, 'X-System-Key': systemKey };
    const outcome = await act(
      () =>
        webhook
          ? apiFetch(`/v1/webhooks/${webhook.id}`, { method: 'PUT', body: form, headers })
          : apiFetch('/v1/webhooks', {
              method: 'POST',
              body: { event: form.event, url: form.url },
              headers,
            }),
      webhook ? `Webhook ${webhook.id} saved` : `Webhook for ${form.event} registered`,
    );
    setBusy(false);
    setSystemKey('');
    if (outcome.ok) onClose();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby="webhook-form-title"
    >
      <form onSubmit={submit}>
        <DialogTitle id="webhook-form-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField select label="Event" value={form.event} onChange={set('event')} required>
              {EVENT_NAMES.map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Callback URL"
              type="url"
              value={form.url}
              onChange={set('url')}
              required
              helperText="HTTPS only"
            />
            {webhook ? (
              <TextField select label="Status" value={form.status} onChange={set('status')}>
                <MenuItem value="Active">Active</MenuItem>
                <MenuItem value="Disabled">Disabled</MenuItem>
              </TextField>
            ) : null}
            <TextField
              label="System key"
              type="password"
              value={systemKey}
              onChange={(e) => setSystemKey(e.target.value)}
              required
              autoComplete="off"
              helperText={`The key of ${system}, shown once when it was registered. Deliveries are signed with it; it is sent with this request only.`}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {webhook ? 'Save' : 'Register'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

export function DeleteWebhookDialog({
  system,
  webhook,
  onClose,
}: {
  system: string;
  webhook: Webhook;
  onClose: () => void;
}) {
  const act = useApiAction([WEBHOOKS_KEY, 'admin']);
  return (
    <ConfirmDialog
      titleId="webhook-delete-title"
      title={`Delete webhook ${webhook.id}?`}
      confirm="Delete"
      onClose={onClose}
      onConfirm={async () => {
        const path = `/v1/webhooks/${webhook.id}`;
        const headers = { 'X-System': system };
        const outcome = await act(
          () => apiFetch(path, { method: 'DELETE', headers }),
          `Webhook ${webhook.id} deleted`,
        );
        if (outcome.ok) onClose();
      }}
    >
      <Typography sx={{ overflowWrap: 'anywhere' }}>
        {webhook.event} will no longer be sent to {webhook.url}.
      </Typography>
    </ConfirmDialog>
  );
}

function result(attempt: Attempt): string {
  if (attempt.statusCode !== null) return `HTTP ${attempt.statusCode}`;
  return attempt.error ?? 'No answer';
}

/** The webhook's latest delivery attempts, newest first, each event with a Redeliver action. */
export function AttemptsDialog({
  system,
  webhook,
  onClose,
}: {
  system: string;
  webhook: Webhook;
  onClose: () => void;
}) {
  const phone = usePhone();
  const act = useApiAction([WEBHOOKS_KEY, 'admin']);
  const headers = { 'X-System': system };
  const { data, error, isPending } = useQuery({
    queryKey: [WEBHOOKS_KEY, system, webhook.id, 'attempts'],
    queryFn: () => fetchPage<Attempt>(`/v1/webhooks/${webhook.id}/attempts?limit=50`, headers),
    refetchInterval: 5_000,
  });
  const redeliver = (attempt: Attempt) =>
    act(
      () => apiFetch(`/v1/webhookEvents/${attempt.eventId}/redeliver`, { method: 'POST', headers }),
      `${attempt.event} is being sent again`,
    );
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="md"
      aria-labelledby="attempts-title"
    >
      <DialogTitle id="attempts-title">Delivery attempts of webhook {webhook.id}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {webhook.event} → {webhook.url}
        </Typography>
        {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
        {!isPending && data?.items.length === 0 ? (
          <Alert severity="info">Nothing has been sent to this webhook yet.</Alert>
        ) : null}
        {data?.items.length ? (
          <PlainTable
            label="Delivery attempts"
            size="small"
            columns={[
              'When',
              !phone && 'Try',
              'Result',
              !phone && { label: 'Time', align: 'right' },
              'Actions',
            ]}
          >
            {data.items.map((attempt) => (
              <TableRow key={attempt.id}>
                <TableCell>{new Date(attempt.created).toLocaleString()}</TableCell>
                {phone ? null : <TableCell>{attempt.attempt}</TableCell>}
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  <Chip
                    size="small"
                    color={attempt.success ? 'success' : 'error'}
                    variant="outlined"
                    label={attempt.success ? 'Delivered' : 'Failed'}
                    sx={{ mr: 1 }}
                  />
                  {result(attempt)}
                </TableCell>
                {phone ? null : <TableCell align="right">{attempt.latencyMs} ms</TableCell>}
                <TableCell>
                  <Button
                    size="small"
                    aria-label={`Redeliver event ${attempt.eventId}`}
                    onClick={() => void redeliver(attempt)}
                  >
                    Redeliver
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </PlainTable>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
