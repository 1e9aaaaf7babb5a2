import { useState, type ReactNode } from 'react';
import { MenuItem, TextField, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { ConfirmDialog } from './ConfirmDialog';
import { useApiAction, type Named } from './kit';

/**
 * "Delete …?" for a record whose people or members go somewhere else: the question, what happens,
 * a choice of where they go (`none`, when given, is the choice of nowhere), then DELETE to
 * `pathFor(choice)`, saying `done` or the API's refusal and refreshing `resources`.
 */
export function ConfirmHandOver({
  title,
  children,
  label,
  choices,
  none,
  initial,
  pathFor,
  done,
  resources,
  onClose,
}: {
  title: string;
  children: ReactNode;
  label: string;
  choices: Named[];
  none?: string;
  initial?: number | null;
  pathFor: (choice: number | null) => string;
  done: string;
  resources: string[];
  onClose: () => void;
}) {
  const act = useApiAction(resources);
  const [choice, setChoice] = useState<number | ''>(
    initial ?? (none ? '' : (choices[0]?.id ?? '')),
  );
  const missing = !none && choice === '';
  return (
    <ConfirmDialog
      titleId="hand-over-title"
      title={title}
      confirm="Delete"
      disabled={missing}
      onClose={onClose}
      onConfirm={async () => {
        const path = pathFor(choice === '' ? null : choice);
        if ((await act(() => apiFetch(path, { method: 'DELETE' }), done)).ok) onClose();
      }}
    >
      <Typography sx={{ mb: 2 }}>{children}</Typography>
      <TextField
        select
        fullWidth
        label={label}
        value={choice}
        onChange={(event) => setChoice(event.target.value === '' ? '' : Number(event.target.value))}
        slotProps={{ select: { displayEmpty: Boolean(none) }, inputLabel: { shrink: true } }}
      >
        {none ? <MenuItem value="">{none}</MenuItem> : null}
        {choices.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.name}
          </MenuItem>
        ))}
      </TextField>
    </ConfirmDialog>
  );
}
