import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { type LeadForm, makeLead } from './api';
import type { InboundEmailDetail } from '../api/types';

function prefill(detail: InboundEmailDetail): LeadForm {
  const s = detail.suggestion;
  const name = s.name ?? [s.firstName, s.lastName].filter(Boolean).join(' ');
  return {
    name,
    email: s.email ?? '',
    phone: s.phone ?? '',
    address: s.address ?? '',
    source: s.source ?? '',
    message: s.message ?? '',
  };
}

const FIELDS: { key: keyof LeadForm; label: string; multiline?: boolean }[] = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'address', label: 'Property address' },
  { key: 'source', label: 'Source' },
  { key: 'message', label: 'Message', multiline: true },
];

/** A lead made by hand from a message, prefilled with what the server could read of it. */
export function MakeLeadDialog({
  detail,
  onClose,
  onMade,
}: {
  detail: InboundEmailDetail;
  onClose: () => void;
  onMade: (personId: number) => void;
}) {
  const [form, setForm] = useState(() => prefill(detail));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      onMade(await makeLead(detail.id, form));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="make-lead-title">
      <DialogTitle id="make-lead-title">Make a lead</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          {FIELDS.map(({ key, label, multiline }) => (
            <TextField
              key={key}
              label={label}
              value={form[key]}
              multiline={multiline}
              minRows={multiline ? 3 : undefined}
              onChange={(e) => setForm({ ...form, [key]: e.target.value })}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          Create lead
        </Button>
      </DialogActions>
    </Dialog>
  );
}
