import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { usePhone } from './kit';
import { ConfirmDialog } from './ConfirmDialog';
import type { Stage } from '../api/types';

export type StageItem = Pick<Stage, 'id' | 'name' | 'isProtected'>;

/** Rename a stage: its people keep it, under its new name. */
export function RenameStageDialog({
  stage,
  onDone,
  onClose,
}: {
  stage: StageItem;
  onDone: (action: () => Promise<unknown>, message: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const phone = usePhone();
  const [name, setName] = useState(stage.name);
  const save = async () => {
    const next = name.trim();
    const ok = await onDone(
      () => apiFetch(`/v1/stages/${stage.id}`, { method: 'PUT', body: { name: next } }),
      `${stage.name} renamed to ${next}`,
    );
    if (ok) onClose();
  };
  return (
    <Dialog open onClose={onClose} fullScreen={phone} aria-labelledby="rename-stage-title">
      <DialogTitle id="rename-stage-title">Rename {stage.name}</DialogTitle>
      <DialogContent>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          fullWidth
          autoFocus
          margin="dense"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!name.trim() || name.trim() === stage.name}
          onClick={() => void save()}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Delete a stage, after asking which stage its people move to. */
export function DeleteStageDialog({
  stage,
  stages,
  onDone,
  onClose,
}: {
  stage: StageItem;
  stages: StageItem[];
  onDone: (action: () => Promise<unknown>, message: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const others = stages.filter((s) => s.id !== stage.id && s.name !== 'Trash');
  const [target, setTarget] = useState(String(others.find((s) => s.name === 'Lead')?.id ?? ''));
  const people = useQuery({
    queryKey: ['stagePeople', stage.id],
    queryFn: async () =>
      (
        (await apiFetch(`/v1/people?stageId=${stage.id}&limit=1&fields=id`)).json as {
          _metadata: { total: number };
        }
      )._metadata.total,
  });
  const count = people.data;
  const targetName = others.find((s) => String(s.id) === target)?.name ?? '';
  const remove = async () => {
    const ok = await onDone(
      () => apiFetch(`/v1/stages/${stage.id}?assignStageId=${target}`, { method: 'DELETE' }),
      count ? `${stage.name} deleted; its people moved to ${targetName}` : `${stage.name} deleted`,
    );
    if (ok) onClose();
  };
  return (
    <ConfirmDialog
      titleId="delete-stage-title"
      title={`Delete ${stage.name}?`}
      confirm="Delete stage"
      disabled={!target || count === undefined}
      onConfirm={() => void remove()}
      onClose={onClose}
    >
      <Typography sx={{ mb: 2 }} role="status">
        {count === undefined
          ? 'Counting its people…'
          : count === 0
            ? 'Nobody is in this stage.'
            : `${count === 1 ? '1 person is' : `${count.toLocaleString('en-US')} people are`} in this stage.`}
      </Typography>
      <TextField
        select
        label="Move its people to"
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        fullWidth
      >
        {others.map((s) => (
          <MenuItem key={s.id} value={String(s.id)}>
            {s.name}
          </MenuItem>
        ))}
      </TextField>
    </ConfirmDialog>
  );
}
