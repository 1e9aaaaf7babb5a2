import { DateInput, SelectInput, TextInput, useGetList } from 'react-admin';
import { Stack } from '@mui/material';
import { WHOLE_LIST, type Named } from '../admin/kit';
import type { SmartListFilters } from '../api/types';

/** The stages, users and ponds that filters name by id. */
export function useFilterChoices() {
  const stages = useGetList<Named>('stages', WHOLE_LIST);
  const users = useGetList<Named>('users', WHOLE_LIST);
  const ponds = useGetList<Named>('ponds', WHOLE_LIST);
  return { stages: stages.data ?? [], users: users.data ?? [], ponds: ponds.data ?? [] };
}
export type FilterChoices = ReturnType<typeof useFilterChoices>;

/**
 * The People list's filters (and a few more of GET /v1/people's) as inputs under `filters.`; a
 * saved filter the form has no input for stays in the form's values, so saving keeps it.
 */
export function FilterInputs({ choices }: { choices: FilterChoices }) {
  return (
    <>
      <TextInput
        source="filters.q"
        label="Search text"
        helperText="A name, email or phone, as in the People list's Search"
        fullWidth
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
        <SelectInput
          source="filters.stageId"
          label="Stage"
          choices={choices.stages}
          emptyText="Any stage"
          helperText={false}
          fullWidth
        />
        <SelectInput
          source="filters.assignedUserId"
          label="Assigned agent"
          choices={choices.users}
          emptyText="Anyone"
          helperText={false}
          fullWidth
        />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
        <TextInput
          source="filters.tags"
          label="Tags"
          helperText="Comma-separated: people with any of them"
          fullWidth
        />
        <TextInput source="filters.source" label="Source" helperText={false} fullWidth />
      </Stack>
      <SelectInput
        source="filters.assignedPondId"
        label="Pond"
        choices={choices.ponds}
        emptyText="Any pond or none"
        helperText={false}
        fullWidth
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }}>
        <DateInput
          source="filters.createdAfter"
          label="Created after"
          helperText={false}
          fullWidth
        />
        <DateInput
          source="filters.lastActivityBefore"
          label="No activity since"
          helperText={false}
          fullWidth
        />
      </Stack>
    </>
  );
}

const LABELS: Record<string, string> = {
  q: 'Search',
  name: 'Name',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  stage: 'Stage',
  tags: 'Tags',
  source: 'Source',
  assignedTo: 'Agent',
  createdAfter: 'Created after',
  createdBefore: 'Created before',
  lastActivityAfter: 'Active since',
  lastActivityBefore: 'No activity since',
  updatedAfter: 'Changed after',
  updatedBefore: 'Changed before',
  priceAbove: 'Price above',
  priceBelow: 'Price below',
  timeframeId: 'Timeframe',
  includeTrash: 'With Trash',
  sort: 'Sorted by',
};

/** The filters in words, one phrase each ("Stage: Lead"), naming what they refer to by id. */
export function describeFilters(filters: SmartListFilters, choices: FilterChoices): string[] {
  const named = (list: Named[], id: unknown, noun: string) =>
    list.find((item) => item.id === Number(id))?.name ?? `${noun} ${String(id)}`;
  return Object.entries(filters)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => {
      if (key === 'stageId') return `Stage: ${named(choices.stages, value, 'stage')}`;
      if (key === 'assignedUserId') return `Agent: ${named(choices.users, value, 'user')}`;
      if (key === 'assignedLenderId') return `Lender: ${named(choices.users, value, 'user')}`;
      if (key === 'assignedPondId') return `Pond: ${named(choices.ponds, value, 'pond')}`;
      return `${LABELS[key] ?? key}: ${String(value)}`;
    });
}
