import { useState } from 'react';
import {
  AutocompleteArrayInput,
  DataTable,
  TextInput,
  required,
  useGetList,
  type RaRecord,
} from 'react-admin';
import { Box, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { ConfirmHandOver } from './ConfirmHandOver';
import { FormDialog, RowActions, WHOLE_LIST, useApiAction, usePhone, type Named } from './kit';
import { ListSection } from './ListSection';
import { RecordTable } from './RecordTable';
import { UserChips } from './UserChips';
import type { Team } from '../api/types';

function TeamDialog({
  team,
  users,
  onClose,
}: {
  team: Team | null;
  users: Named[];
  onClose: () => void;
}) {
  const act = useApiAction(['teams', 'users']);
  return (
    <FormDialog
      resource="teams"
      title={team ? `Edit team ${team.name}` : 'New team'}
      record={team ?? { leaderIds: [], userIds: [] }}
      onClose={onClose}
      onSubmit={(values) => {
        const body = {
          name: values.name,
          leaderIds: values.leaderIds ?? [],
          userIds: values.userIds ?? [],
        };
        return act(
          () =>
            team
              ? apiFetch(`/v1/teams/${team.id}`, { method: 'PUT', body })
              : apiFetch('/v1/teams', { method: 'POST', body }),
          `Team ${String(values.name)} saved`,
        );
      }}
    >
      <TextInput source="name" label="Team name" validate={required()} fullWidth />
      <AutocompleteArrayInput
        source="leaderIds"
        label="Leaders"
        choices={users}
        helperText="A leader sees the people of the team's members"
      />
      <AutocompleteArrayInput source="userIds" label="Members" choices={users} helperText={false} />
    </FormDialog>
  );
}

/** Teams: members, and leaders who see the members' people. */
export function TeamsSection({ users }: { users: Named[] }) {
  const phone = usePhone();
  const [editing, setEditing] = useState<Team | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const teams = useGetList<Named>('teams', WHOLE_LIST).data ?? [];
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  const leaders = (ids: number[]) =>
    ids.length === 0 ? 'no leader' : ids.map((id) => nameOf.get(id) ?? `User ${id}`).join(', ');
  const members = (record: RaRecord) => (
    <UserChips ids={(record as Team).userIds} users={users} none="No members" />
  );
  return (
    <ListSection
      headingId="teams-heading"
      title="Teams"
      addLabel="New team"
      onAdd={() => setEditing('new')}
    >
      <RecordTable
        resource="teams"
        what="the teams"
        sort={{ field: 'name', order: 'ASC' }}
        empty="No teams yet. A team's leaders see the people of its members."
        actions={(record) => (
          <RowActions
            label={`team ${record.name}`}
            onEdit={() => setEditing(record as Team)}
            onDelete={() => setDeleting(record as Team)}
          />
        )}
      >
        <DataTable.Col
          source="name"
          label="Team"
          render={(record: RaRecord) => (
            <Box>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {record.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Led by {leaders((record as Team).leaderIds)}
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
        <TeamDialog
          team={editing === 'new' ? null : editing}
          users={users}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <ConfirmHandOver
          title={`Delete team ${deleting.name}?`}
          label="Move its members and leaders to"
          choices={teams.filter((t) => t.id !== deleting.id)}
          none="No other team"
          pathFor={(teamId) => `/v1/teams/${deleting.id}${teamId ? `?moveToTeamId=${teamId}` : ''}`}
          done={`Team ${deleting.name} deleted`}
          resources={['teams', 'users']}
          onClose={() => setDeleting(null)}
        >
          Its leaders stop seeing its members&apos; people, unless another team takes them over.
        </ConfirmHandOver>
      ) : null}
    </ListSection>
  );
}
