import { useState } from 'react';
import { Autocomplete, Chip, TextField } from '@mui/material';
import { helperOf, useInlineSave, type FieldState } from './useInlineSave';

/** Tags: type one and press Enter to add it, remove one with its ×; each change is saved. */
export function InlineTags({ tags }: { tags: string[] }) {
  const save = useInlineSave();
  const [state, setState] = useState<FieldState>({ kind: 'idle' });
  async function change(next: string[]) {
    const unique = [...new Set(next.map((t) => t.trim()).filter(Boolean))];
    setState({ kind: 'saving' });
    try {
      await save('Tags', { tags: unique });
      setState({ kind: 'saved' });
    } catch (failure) {
      setState({ kind: 'error', message: (failure as Error).message });
    }
  }
  return (
    <Autocomplete
      multiple
      freeSolo
      options={[]}
      value={tags}
      onChange={(_e, next) => void change(next as string[])}
      renderValue={(values, getItemProps) =>
        values.map((tag, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} label={tag} {...props} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label="Tags"
          error={state.kind === 'error'}
          helperText={helperOf(state, 'Type a tag and press Enter')}
        />
      )}
      sx={{ '@media (max-width: 599.95px)': { '& .MuiChip-root': { minHeight: 44 } } }}
    />
  );
}
