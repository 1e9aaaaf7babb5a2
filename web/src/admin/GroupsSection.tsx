import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  AutocompleteArrayInput,
  DataTable,
  FormDataConsumer,
  NumberInput,
  SelectInput,
  TextInput,
  required,
  useGetList,
  type RaRecord,
} from 'react-admin';
import { Box, Chip, Stack, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { ConfirmDelete } from './ConfirmDelete';
import { FormDialog, RowActions, WHOLE_LIST, useApiAction, usePhone, type Named } from './kit';
import { ListSection } from './ListSection';
import { RecordTable } from './RecordTable';
import type { Group, GroupRotation } from '../api/types';

const DISTRIBUTIONS = [
  { id: 'round-robin', name: 'Round robin: members in turn' },
  { id: 'first-to-claim', name: 'First to claim: offered to all, first one gets it' },
];
const TYPES = [
  { id: 'Agent', name: 'Agents' },
  { id: 'Lender', name: 'Lenders' },
];

/** The people a group's leads can go to: users, other groups, ponds. */
export function useRoutingChoices() {
  const users = useGetList<Named>('users', WHOLE_LIST);
  const groups = useGetList<Named>('groups', WHOLE_LIST);
  const ponds = useGetList<Named>('ponds', WHOLE_LIST);
  return { users: users.data ?? [], groups: groups.data ?? [], ponds: ponds.data ?? [] };
}

function GroupDialog({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const act = useApiAction(['groups']);
  const { users, groups, ponds } = useRoutingChoices();
  const record = group
    ? { ...group, users: group.users.map((u) => u.id), claimMinutes: group.claimWindow / 60 }
    : { type: 'Agent', distribution: 'round-robin', claimMinutes: 5, users: [] };
  return (
    <FormDialog
      resource="groups"
      title={group ? `Edit group ${group.name}` : 'New group'}
      record={record}
      onClose={onClose}
      onSubmit={(values) => {
        const body: Record<string, unknown> = {
          name: values.name,
          type: values.type,
          distribution: values.distribution,
          users: values.users ?? [],
          defaultUserId: values.defaultUserId || null,
          defaultGroupId: values.defaultGroupId || null,
          defaultPondId: values.defaultPondId || null,
        };
        if (values.distribution === 'first-to-claim')
          body.claimWindow = Math.round(Number(values.claimMinutes) * 60);
        return act(
          () =>
            group
              ? apiFetch(`/v1/groups/${group.id}`, { method: 'PUT', body })
              : apiFetch('/v1/groups', { method: 'POST', body }),
          `Group ${String(values.name)} saved`,
        );
      }}
    >
      <TextInput source="name" label="Group name" validate={required()} fullWidth />
      <SelectInput source="type" label="Members are" choices={TYPES} helperText={false} />
      <SelectInput
        source="distribution"
        label="Distribution"
        choices={DISTRIBUTIONS}
        helperText={false}
      />
      <FormDataConsumer<{ distribution?: string }>>
        {({ formData }) =>
          formData.distribution === 'first-to-claim' ? (
            <NumberInput
              source="claimMinutes"
              label="Claim window (minutes)"
              min={1}
              max={30}
              helperText="1 to 30; then the lead goes to the fallback"
            />
          ) : null
        }
      </FormDataConsumer>
      <AutocompleteArrayInput
        source="users"
        label="Members, in rotation order"
        choices={users}
        helperText={false}
      />
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Fallback when nobody claims a lead
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <SelectInput
          source="defaultUserId"
          label="User"
          choices={users}
          emptyText="Nobody"
          helperText={false}
        />
        <SelectInput
          source="defaultGroupId"
          label="Group"
          choices={groups.filter((g) => g.id !== group?.id)}
          emptyText="None"
          helperText={false}
        />
        <SelectInput
          source="defaultPondId"
          label="Pond"
          choices={ponds}
          emptyText="None"
          helperText={false}
        />
      </Stack>
    </FormDialog>
  );
}

type Rotation = Pick<GroupRotation, 'id' | 'nextUserId' | 'leadsDistributed'>;

function HowShared({ group, rotation }: { group: Group; rotation?: Rotation }) {
  if (group.distribution === 'first-to-claim')
    return (
      <Typography variant="body2">
        First to claim · {Math.round((group.claimWindow / 60) * 10) / 10} min window
      </Typography>
    );
  const next = group.users.find((u) => u.id === rotation?.nextUserId);
  return (
    <Typography variant="body2">
      Round robin{next ? ` · next: ${next.name}` : ''}
      {rotation ? ` · ${rotation.leadsDistributed} handed out` : ''}
    </Typography>
  );
}

function Members({ group }: { group: Group }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
      {group.users.map((u) => (
        <Chip key={u.id} size="small" label={u.name} />
      ))}
    </Stack>
  );
}

/** Groups of users that share new leads, round robin or first to claim. */
export function GroupsSection() {
  const phone = usePhone();
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const rotation = useQuery({
    queryKey: ['groups', 'rotation'],
    queryFn: () => fetchAll<Rotation>('/v1/groups/roundRobin?limit=100'),
  });
  const rotationOf = new Map((rotation.data ?? []).map((r) => [r.id, r]));
  return (
    <ListSection
      headingId="groups-heading"
      title="Groups"
      addLabel="New group"
      onAdd={() => setEditing('new')}
    >
      <RecordTable
        resource="groups"
        empty="No groups yet. A group shares new leads among its members."
        actions={(record) => (
          <RowActions
            label={`group ${record.name}`}
            onEdit={() => setEditing(record as Group)}
            onDelete={() => setDeleting(record as Group)}
          />
        )}
      >
        <DataTable.Col
          source="name"
          label="Group"
          disableSort
          render={(record: RaRecord) => (
            <Box>
              <Typography sx={{ fontWeight: 600 }}>{record.name}</Typography>
              <HowShared group={record as Group} rotation={rotationOf.get(record.id as number)} />
              {phone ? <Members group={record as Group} /> : null}
            </Box>
          )}
        />
        {phone ? null : (
          <DataTable.Col
            source="users"
            label="Members"
            disableSort
            render={(record: RaRecord) => <Members group={record as Group} />}
          />
        )}
      </RecordTable>
      {editing ? (
        <GroupDialog group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          title={`Delete group ${deleting.name}?`}
          content="Lead flows that send leads to it fall back to the account owner."
          path={`/v1/groups/${deleting.id}`}
          done={`${deleting.name} deleted`}
          resources={['groups', 'leadFlows']}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </ListSection>
  );
}
