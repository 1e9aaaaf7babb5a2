import { useState } from 'react';
import { MenuItem, TextField } from '@mui/material';
import { helperOf, useInlineSave, type FieldState } from './useInlineSave';

export interface Choice {
  value: string;
  label: string;
}

/** A choice saved as soon as it is picked, with "Saved" or the server's error beneath it. */
export function InlineSelect({
  label,
  value,
  choices,
  toPatch,
  emptyLabel,
}: {
  label: string;
  value: string;
  choices: Choice[];
  toPatch: (value: string) => Record<string, unknown>;
  /** The label of "none" (e.g. Nobody); omit when a value is required. */
  emptyLabel?: string;
}) {
  const save = useInlineSave();
  const [state, setState] = useState<FieldState>({ kind: 'idle' });
  const known = value === '' || choices.some((c) => c.value === value);
  async function pick(next: string) {
    if (next === value) return;
    setState({ kind: 'saving' });
    try {
      await save(label, toPatch(next));
      setState({ kind: 'saved' });
    } catch (failure) {
      setState({ kind: 'error', message: (failure as Error).message });
    }
  }
  return (
    <TextField
      select
      label={label}
      value={known ? value : ''}
      onChange={(e) => void pick(e.target.value)}
      error={state.kind === 'error'}
      helperText={helperOf(state) ?? ' '}
      slotProps={{
        formHelperText: { sx: state.kind === 'saved' ? { color: 'success.dark' } : undefined },
      }}
    >
      {emptyLabel !== undefined ? <MenuItem value="">{emptyLabel}</MenuItem> : null}
      {choices.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
