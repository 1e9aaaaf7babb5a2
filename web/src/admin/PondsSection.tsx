import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  AutocompleteArrayInput,
  DataTable,
  SelectInput,
  TextInput,
  required,
  type RaRecord,
} from 'react-admin';
import { Box, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchPage } from '../api/lists';
import { ConfirmHandOver } from './ConfirmHandOver';
import { FormDialog, RowActions, useApiAction, usePhone, type Named } from './kit';
import { ListSection } from './ListSection';
import { RecordTable } from './RecordTable';
import { UserChips } from './UserChips';
import type { Pond } from '../api/types';

function PondDialog({
  pond,
  users,
  onClose,
}: {
  pond: Pond | null;
  users: Named[];
  onClose: () => void;
}) {
  const act = useApiAction(['ponds']);
  return (
    <FormDialog
      resource="ponds"
      title={pond ? `Edit pond ${pond.name}` : 'New pond'}
      record={pond ?? { userIds: [] }}
      onClose={onClose}
      onSubmit={(values) => {
        const body = {
          name: values.name,
          userId: values.userId || null,
          userIds: values.userIds ?? [],
        };
        return act(
          () =>
            pond
              ? apiFetch(`/v1/ponds/${pond.id}`, { method: 'PUT', body })
              : apiFetch('/v1/ponds', { method: 'POST', body }),
          `Pond ${String(values.name)} saved`,
        );
      }}
    >
      <TextInput source="name" label="Pond name" validate={required()} fullWidth />
      <SelectInput
        source="userId"
        label="Lead agent"
        choices={users}
        emptyText="Nobody"
        helperText="Stands in as the agent of the pond's people: notifications, tasks, merge fields"
      />
      <AutocompleteArrayInput
        source="userIds"
        label="Members"
        choices={users}
        helperText="Each member sees the pond's people"
      />
    </FormDialog>
  );
}

function DeletePond({ pond, users, onClose }: { pond: Pond; users: Named[]; onClose: () => void }) {
  const people = useQuery({
    queryKey: ['people', 'inPond', pond.id],
    queryFn: () => fetchPage(`/v1/people?assignedPondId=${pond.id}&limit=1&fields=id`),
  });
  const count = people.data?.total;
  return (
    <ConfirmHandOver
      title={`Delete pond ${pond.name}?`}
      label="Its people go to"
      choices={users}
      initial={pond.userId}
      pathFor={(userId) => `/v1/ponds/${pond.id}?assignTo=${userId}`}
      done={`Pond ${pond.name} deleted`}
      resources={['ponds', 'people']}
      onClose={onClose}
    >
      {count === undefined
        ? 'The people in this pond'
        : count === 1
          ? '1 person is in this pond; they'
          : `${count} people are in this pond; they`}{' '}
      get the agent you choose.
    </ConfirmHandOver>
  );
}

/** Ponds: shared pools of leads that their members work, with a lead agent who stands in. */
export function PondsSection({ users }: { users: Named[] }) {
  const phone = usePhone();
  const [editing, setEditing] = useState<Pond | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Pond | null>(null);
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  const members = (record: RaRecord) => (
    <UserChips ids={(record as Pond).userIds} users={users} none="No members" />
  );
  return (
    <ListSection
      headingId="ponds-heading"
      title="Ponds"
      addLabel="New pond"
      onAdd={() => setEditing('new')}
    >
      <RecordTable
        resource="ponds"
        what="the ponds"
        sort={{ field: 'name', order: 'ASC' }}
        empty="No ponds yet. A pond holds leads that no single agent owns, for its members to work."
        actions={(record) => (
          <RowActions
            label={`pond ${record.name}`}
            onEdit={() => setEditing(record as Pond)}
            onDelete={() => setDeleting(record as Pond)}
          />
        )}
      >
        <DataTable.Col
          source="name"
          label="Pond"
          render={(record: RaRecord) => (
            <Box>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {record.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Lead agent:{' '}
                {record.userId ? (nameOf.get(record.userId) ?? `User ${record.userId}`) : 'nobody'}
              </Typography>
              {phone ? members(record) : null}
            </Box>
          )}
        />
        {phone ? null : (
          <DataTable.Col source="userIds" label="Members" disableSort render={members} />
        )}
      </RecordTable>
      {editing ? (
        <PondDialog
          pond={editing === 'new' ? null : editing}
          users={users}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <DeletePond pond={deleting} users={users} onClose={() => setDeleting(null)} />
      ) : null}
    </ListSection>
  );
}
