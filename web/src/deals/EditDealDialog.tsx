import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { usePhone } from '../admin/kit';
import type { Deal, PipelineStage } from '../api/types';

type DealDetails = Pick<
  Deal,
  'id' | 'name' | 'stageId' | 'price' | 'projectedCloseDate' | 'commissionValue' | 'description'
>;

const amount = (raw: FormDataEntryValue | null) => {
  const text = String(raw ?? '').replace(/[$,\s]/g, '');
  return text === '' ? null : Number(text);
};

/** A pipeline stage as the board knows it; `outcome` marks where deals are won or lost. */
export type DealStage = Pick<PipelineStage, 'id' | 'name' | 'outcome'>;

/**
 * A deal opened from its card: its fields, Save, Mark won / Mark lost (the deal moves to the
 * pipeline's Won or Lost stage), and Delete (asked twice).
 */
export function EditDealDialog({
  dealId,
  boardKey,
  stages = [],
  onClose,
}: {
  dealId: number;
  boardKey: readonly unknown[];
  stages?: DealStage[];
  onClose: () => void;
}) {
  const phone = usePhone();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const deal = useQuery({
    queryKey: ['deal', dealId],
    queryFn: async () => (await apiFetch(`/v1/deals/${dealId}`)).json as DealDetails,
  });

  const done = async (message: string) => {
    notify(message, { type: 'info' });
    await queryClient.invalidateQueries({ queryKey: boardKey });
    onClose();
  };
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      await apiFetch(`/v1/deals/${dealId}`, {
        method: 'PUT',
        body: {
          name: String(form.get('name')).trim(),
          price: amount(form.get('price')),
          commissionValue: amount(form.get('commissionValue')),
          projectedCloseDate: String(form.get('projectedCloseDate') ?? '') || null,
          description: String(form.get('description') ?? ''),
        },
      });
      await done('Deal saved');
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const markAs = async (stage: DealStage, outcome: string) => {
    setError(null);
    try {
      await apiFetch(`/v1/deals/${dealId}`, { method: 'PUT', body: { stageId: stage.id } });
      await done(`${deal.data?.name ?? 'Deal'} marked ${outcome}`);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const won = stages.find((s) => s.outcome === 'won');
  const lost = stages.find((s) => s.outcome === 'lost');
  const remove = async () => {
    try {
      await apiFetch(`/v1/deals/${dealId}`, { method: 'DELETE' });
      await done('Deal deleted');
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  const d = deal.data;
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby="deal-title"
    >
      <form onSubmit={save}>
        <DialogTitle id="deal-title">{d ? d.name : 'Deal'}</DialogTitle>
        <DialogContent>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {deal.isError ? (
            <Alert severity="error" action={<Button onClick={() => deal.refetch()}>Retry</Button>}>
              Could not open the deal: {(deal.error as Error).message}
            </Alert>
          ) : !d ? (
            <Typography role="status">Opening the deal…</Typography>
          ) : (
            <Stack spacing={2} sx={{ mt: 1 }}>
              <Outcome stageId={d.stageId} stages={stages} />
              <TextField label="Name" name="name" defaultValue={d.name} required fullWidth />
              <TextField
                label="Price"
                name="price"
                defaultValue={d.price ?? ''}
                inputMode="decimal"
                fullWidth
              />
              <TextField
                label="Commission"
                name="commissionValue"
                defaultValue={d.commissionValue ?? ''}
                inputMode="decimal"
                fullWidth
              />
              <TextField
                label="Close date"
                name="projectedCloseDate"
                type="date"
                defaultValue={d.projectedCloseDate ?? ''}
                slotProps={{ inputLabel: { shrink: true } }}
                fullWidth
              />
              <TextField
                label="Description"
                name="description"
                defaultValue={d.description}
                multiline
                minRows={2}
                fullWidth
              />
            </Stack>
          )}
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap' }}>
          {confirmDelete ? (
            <Button color="error" variant="contained" onClick={remove}>
              Yes, delete this deal
            </Button>
          ) : (
            <Button color="error" onClick={() => setConfirmDelete(true)} disabled={!d}>
              Delete
            </Button>
          )}
          {won && d?.stageId !== won.id ? (
            <Button color="success" variant="outlined" onClick={() => markAs(won, 'won')}>
              Mark won
            </Button>
          ) : null}
          {lost && d?.stageId !== lost.id ? (
            <Button color="inherit" variant="outlined" onClick={() => markAs(lost, 'lost')}>
              Mark lost
            </Button>
          ) : null}
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!d}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Where the deal stands: its stage, said as Won or Lost on those stages. */
function Outcome({ stageId, stages }: { stageId: number | null; stages: DealStage[] }) {
  const stage = stages.find((s) => s.id === stageId);
  if (!stage) return null;
  if (stage.outcome)
    return (
      <Alert severity={stage.outcome === 'won' ? 'success' : 'info'} role="status">
        {stage.outcome === 'won' ? 'Won' : 'Lost'}: this deal is in {stage.name}.
      </Alert>
    );
  const closes = stages.some((s) => s.outcome);
  return (
    <Typography variant="body2" color="text.secondary">
      Stage: {stage.name}
      {closes
        ? ''
        : '. This pipeline has no Won or Lost stage; an Owner marks one in Admin, Pipelines.'}
    </Typography>
  );
}
