import { useState } from 'react';
import { DataTable, useGetIdentity, usePermissions, type RaRecord } from 'react-admin';
import { Link } from 'react-router-dom';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDelete } from '../admin/ConfirmDelete';
import { RowActions, usePhone } from '../admin/kit';
import { RecordTable } from '../admin/RecordTable';
import { ScreenIntro } from '../admin/ScreenIntro';
import { describeFilters, useFilterChoices, type FilterChoices } from './filters';
import { SmartListDialog, type SmartListDraft } from './SmartListDialog';
import type { SmartList } from '../api/types';

/** The People list showing a smart list's people. */
export const peopleOf = (id: number) =>
  `/people?filter=${encodeURIComponent(JSON.stringify({ smartListId: id }))}`;

const NEW_LIST: SmartListDraft = { name: '', filters: {}, isShared: false };

/** The API's rule: a list's owner, the Owner and Admins change it; others only read it. */
function mayChange(list: SmartList, role: unknown, myId?: number | string): boolean {
  return role === 'Owner' || role === 'Admin' || list.userId === myId;
}

function FilterSummary({ list, choices }: { list: SmartList; choices: FilterChoices }) {
  const phrases = describeFilters(list.filters, choices);
  if (phrases.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        Everyone you can see
      </Typography>
    );
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
      {phrases.map((phrase) => (
        <Chip key={phrase} size="small" variant="outlined" label={phrase} />
      ))}
    </Stack>
  );
}

function Sharing({
  list,
  choices,
  myId,
}: {
  list: SmartList;
  choices: FilterChoices;
  myId?: number | string;
}) {
  const owner =
    list.userId === myId ? 'you' : choices.users.find((u) => u.id === list.userId)?.name;
  return (
    <Typography variant="body2" color="text.secondary">
      {list.isShared ? `Shared${owner ? ` by ${owner}` : ''}` : 'Only you'}
    </Typography>
  );
}

/**
 * Smart lists: saved People searches, for everyone. Each user keeps their own lists and sees the
 * shared ones; a campaign can go to a list, and a list opens as the People list.
 */
export function SmartListsScreen() {
  const phone = usePhone();
  const choices = useFilterChoices();
  const { permissions } = usePermissions();
  const myId = useGetIdentity().identity?.id;
  const [editing, setEditing] = useState<SmartListDraft | null>(null);
  const [deleting, setDeleting] = useState<SmartList | null>(null);
  const open = (record: RaRecord) => (
    <Button
      size="small"
      component={Link}
      to={peopleOf(record.id as number)}
      aria-label={`Open ${record.name}`}
    >
      Open
    </Button>
  );
  return (
    <>
      <PageHeading>Smart lists</PageHeading>
      <ScreenIntro addLabel="New smart list" onAdd={() => setEditing(NEW_LIST)}>
        Saved People searches. Open one to see who matches now, or save the People list&apos;s
        filters with Save as smart list.
      </ScreenIntro>
      <RecordTable
        resource="smartLists"
        what="the smart lists"
        sort={{ field: 'name', order: 'ASC' }}
        empty="No smart lists yet."
        actions={(record) =>
          mayChange(record as SmartList, permissions, myId) ? (
            <RowActions
              label={`smart list ${record.name}`}
              onEdit={() => setEditing(record as SmartList)}
              onDelete={() => setDeleting(record as SmartList)}
            >
              {open(record)}
            </RowActions>
          ) : (
            <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
              {open(record)}
            </Stack>
          )
        }
      >
        <DataTable.Col
          source="name"
          label="Smart list"
          render={(record: RaRecord) => (
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {record.name}
              </Typography>
              <Sharing list={record as SmartList} choices={choices} myId={myId} />
              {phone ? <FilterSummary list={record as SmartList} choices={choices} /> : null}
            </Box>
          )}
        />
        {phone ? null : (
          <DataTable.Col
            source="filters"
            label="Filters"
            disableSort
            render={(record: RaRecord) => (
              <FilterSummary list={record as SmartList} choices={choices} />
            )}
          />
        )}
      </RecordTable>
      {editing ? <SmartListDialog list={editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDelete
          title={`Delete smart list ${deleting.name}?`}
          content="Its people stay as they are; only the saved search is deleted."
          path={`/v1/smartLists/${deleting.id}`}
          done={`Smart list ${deleting.name} deleted`}
          resources={['smartLists']}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}
