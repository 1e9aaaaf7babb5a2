import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Chip,
  MenuItem,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { fetchAll } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { usePhone } from './kit';
import { PlainTable } from './PlainTable';
import { useSystems } from './SystemsScreen';
import {
  AttemptsDialog,
  DeleteWebhookDialog,
  WEBHOOKS_KEY,
  WebhookFormDialog,
} from './WebhookDialogs';
import type { Webhook } from '../api/types';

type Open = { kind: 'new' } | { kind: 'edit' | 'delete' | 'attempts'; webhook: Webhook } | null;

function WebhooksTable({
  webhooks,
  onOpen,
}: {
  webhooks: Webhook[];
  onOpen: (open: Open) => void;
}) {
  const phone = usePhone();
  return (
    <Paper variant="outlined">
      <PlainTable
        label="Webhooks"
        columns={['Event', !phone && 'Callback URL', 'Status', 'Actions']}
      >
        {webhooks.map((hook) => (
          <TableRow key={hook.id}>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>
              <Typography sx={{ fontWeight: 600 }} variant="body2">
                {hook.event}
              </Typography>
              {phone ? (
                <Typography variant="caption" color="text.secondary">
                  {hook.url}
                </Typography>
              ) : null}
            </TableCell>
            {phone ? null : (
              <TableCell sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace' }}>
                {hook.url}
              </TableCell>
            )}
            <TableCell>
              <Chip
                size="small"
                label={hook.status}
                color={hook.status === 'Active' ? 'success' : 'default'}
                variant="outlined"
              />
            </TableCell>
            <TableCell>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={0.5}>
                <Button
                  size="small"
                  aria-label={`Attempts of webhook ${hook.id}`}
                  onClick={() => onOpen({ kind: 'attempts', webhook: hook })}
                >
                  Attempts
                </Button>
                <Button
                  size="small"
                  aria-label={`Edit webhook ${hook.id}`}
                  onClick={() => onOpen({ kind: 'edit', webhook: hook })}
                >
                  Edit
                </Button>
                <Button
                  size="small"
                  color="error"
                  aria-label={`Delete webhook ${hook.id}`}
                  onClick={() => onOpen({ kind: 'delete', webhook: hook })}
                >
                  Delete
                </Button>
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </PlainTable>
    </Paper>
  );
}

/**
 * Webhooks (Owner): the API keeps them per registered system (X-System), so the screen lists one
 * system's at a time; the system is in the address (?system=) so a link can point at it.
 */
export function WebhooksScreen() {
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState<Open>(null);
  const systems = useSystems();
  const system = params.get('system') ?? systems.data?.[0]?.name ?? '';
  const headers = { 'X-System': system };
  const webhooks = useQuery({
    queryKey: [WEBHOOKS_KEY, system],
    enabled: system !== '',
    queryFn: () => fetchAll<Webhook>('/v1/webhooks?limit=100', 2000, headers),
  });
  const close = () => setOpen(null);
  return (
    <>
      <PageHeading>Webhooks</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Hearth sends each change to the HTTPS addresses a system registered, signed with that
        system’s key. Failed deliveries are retried; see each webhook’s attempts.
      </Typography>
      {systems.error ? <Alert severity="error">{(systems.error as Error).message}</Alert> : null}
      {systems.data?.length === 0 ? (
        <Alert severity="info">
          Webhooks belong to a registered system, and none is registered yet (
          <code>npm run admin -- create-system --name MyWebsite</code>).
        </Alert>
      ) : null}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ mb: 2, alignItems: { sm: 'center' } }}
      >
        <TextField
          select
          size="small"
          label="System"
          value={systems.data?.some((s) => s.name === system) ? system : ''}
          onChange={(event) => setParams({ system: event.target.value })}
          sx={{ minWidth: 220 }}
        >
          {(systems.data ?? []).map((s) => (
            <MenuItem key={s.id} value={s.name}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flex: 1 }} />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          disabled={!system}
          onClick={() => setOpen({ kind: 'new' })}
        >
          New webhook
        </Button>
      </Stack>
      {webhooks.error ? <Alert severity="error">{(webhooks.error as Error).message}</Alert> : null}
      {system && webhooks.data?.length === 0 ? (
        <Alert severity="info">{system} has no webhooks in this account.</Alert>
      ) : null}
      {webhooks.data?.length ? <WebhooksTable webhooks={webhooks.data} onOpen={setOpen} /> : null}
      {open?.kind === 'new' ? <WebhookFormDialog system={system} onClose={close} /> : null}
      {open?.kind === 'edit' ? (
        <WebhookFormDialog system={system} webhook={open.webhook} onClose={close} />
      ) : null}
      {open?.kind === 'delete' ? (
        <DeleteWebhookDialog system={system} webhook={open.webhook} onClose={close} />
      ) : null}
      {open?.kind === 'attempts' ? (
        <AttemptsDialog system={system} webhook={open.webhook} onClose={close} />
      ) : null}
    </>
  );
}
