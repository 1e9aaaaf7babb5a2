import { BooleanInput, TextInput, required } from 'react-admin';
import { Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { FormDialog, useApiAction, withoutBlanks } from '../admin/kit';
import { FilterInputs, useFilterChoices } from './filters';
import type { SmartList, SmartListFilters } from '../api/types';

/** What the dialog edits: a saved list, or a new one (maybe with the People list's filters). */
export type SmartListDraft = Pick<SmartList, 'name' | 'filters' | 'isShared'> & { id?: number };

/**
 * A smart list's name, sharing and filters. PUT replaces the saved filters whole, so the form
 * sends them all, including any it has no input for.
 */
export function SmartListDialog({ list, onClose }: { list: SmartListDraft; onClose: () => void }) {
  const act = useApiAction(['smartLists']);
  const choices = useFilterChoices();
  return (
    <FormDialog
      resource="smartLists"
      title={list.id ? `Edit smart list ${list.name}` : 'New smart list'}
      maxWidth="md"
      record={list}
      onClose={onClose}
      onSubmit={(values) => {
        const body = {
          name: values.name,
          isShared: Boolean(values.isShared),
          filters: withoutBlanks((values.filters ?? {}) as SmartListFilters),
        };
        return act(
          () =>
            list.id
              ? apiFetch(`/v1/smartLists/${list.id}`, { method: 'PUT', body })
              : apiFetch('/v1/smartLists', { method: 'POST', body }),
          `Smart list ${String(values.name)} saved`,
        );
      }}
    >
      <TextInput source="name" label="Smart list name" validate={required()} fullWidth />
      <BooleanInput
        source="isShared"
        label="Shared with the whole team"
        helperText="Everyone sees a shared list, each with only the people they may see"
      />
      <Typography variant="subtitle2" component="h3" sx={{ mt: 1, mb: 1 }}>
        People who match all of these
      </Typography>
      <FilterInputs choices={choices} />
    </FormDialog>
  );
}
